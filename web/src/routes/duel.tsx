/** Area: 1:1 typing duel (spec part 2 §2). The page lives in features/duel and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/duel/duel.css";
import { rootRoute } from "./root";

const duelRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/duel",
  component: lazyRouteComponent(() => import("../features/duel/duel-page"), "DuelPage"),
});

export const duelRoutes = [duelRoute] as const;
