import { createRoute } from "@tanstack/react-router";
import { LoginPage } from "../features/account/login-page";
import { rootRoute } from "./root";

const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: "/login", component: LoginPage });

export const loginRoutes = [loginRoute] as const;
