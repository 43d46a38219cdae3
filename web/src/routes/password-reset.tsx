import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root";

const passwordResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/password-reset",
  component: lazyRouteComponent(() => import("../features/account/password-reset-page"), "PasswordResetPage"),
});

export const passwordResetRoutes = [passwordResetRoute] as const;
