/** Area: 타자 연습 (issue 28). The page lives in features/practice and loads when first visited. */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import "../features/practice/practice.css";
import { rootRoute } from "./root";

const practiceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/practice",
  component: lazyRouteComponent(() => import("../features/practice/practice-page"), "PracticePage"),
});

export const practiceRoutes = [practiceRoute] as const;
