import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root";

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/password-forgot",
  component: lazyRouteComponent(() => import("../features/account/password-forgot-page"), "PasswordForgotPage"),
});

const resetWithLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/password-forgot/reset",
  validateSearch: (search: Record<string, unknown>) => ({
    token: typeof search.token === "string" ? search.token : "",
  }),
  component: lazyRouteComponent(() => import("../features/account/password-forgot-page"), "ResetWithLinkPage"),
});

export const passwordForgotRoutes = [forgotRoute, resetWithLinkRoute] as const;
