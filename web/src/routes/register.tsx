import { createRoute } from "@tanstack/react-router";
import { RegisterPage } from "../features/account/register-page";
import { rootRoute } from "./root";

const registerRoute = createRoute({ getParentRoute: () => rootRoute, path: "/register", component: RegisterPage });

export const registerRoutes = [registerRoute] as const;
