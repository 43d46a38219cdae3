/** Area: administrator console (issue 5). Replace this file's routes; keep the export name `adminRoutes`. */
import { createRoute } from "@tanstack/react-router";
import { ComingSoon } from "../features/shell/coming-soon";
import { requireAdmin } from "./guards";
import { rootRoute } from "./root";

const adminDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/dashboard",
  beforeLoad: requireAdmin(),
  component: () => <ComingSoon title="관리자 대시보드" />,
});
const adminUsersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/users",
  beforeLoad: requireAdmin(),
  component: () => <ComingSoon title="사용자 관리" />,
});
const adminUserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/users/$userId",
  beforeLoad: requireAdmin(),
  component: () => <ComingSoon title="사용자 상세" />,
});
const adminLogsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/logs",
  beforeLoad: requireAdmin(),
  component: () => <ComingSoon title="관리자 로그" />,
});

export const adminRoutes = [adminDashboardRoute, adminUsersRoute, adminUserRoute, adminLogsRoute] as const;
