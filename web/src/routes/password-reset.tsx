import { createRoute } from "@tanstack/react-router";
import { PasswordResetPage } from "../features/account/password-reset-page";
import { rootRoute } from "./root";

const passwordResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/password-reset",
  component: PasswordResetPage,
});

export const passwordResetRoutes = [passwordResetRoute] as const;
