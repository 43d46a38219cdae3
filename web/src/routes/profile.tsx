/** Area: profile (issue 5). Replace this file's routes; keep the export name `profileRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { requireLogin } from "./guards";
import { rootRoute } from "./root";

const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/profile",
  beforeLoad: requireLogin("프로필을 보려면 로그인이 필요합니다."),
  component: () => <ComingSoon title="프로필" />,
});

export const profileRoutes = [profileRoute] as const;
