/** Area: rankings (spec part 2 §2 "Rankings"). The page lives in features/ranking and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/ranking/ranking.css";
import { rootRoute } from "./root";

const rankingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/ranking",
  component: lazyRouteComponent(() => import("../features/ranking/ranking-page"), "RankingPage"),
});

export const rankingRoutes = [rankingRoute] as const;
