/** Area: 오늘의 문장 (issue 26). The page lives in features/daily and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/daily/daily.css";
import { rootRoute } from "./root";

const dailyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/daily",
  component: lazyRouteComponent(() => import("../features/daily/daily-page"), "DailyPage"),
});

export const dailyRoutes = [dailyRoute] as const;
