/**
 * Area: administrator console (issue 5). Pages live in features/admin and load when first visited (lazy route
 * components); non-administrators go to /.
 */
import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import "../features/admin/admin.css";
import { type LogSearch, USER_SORT_FIELDS, type UserListSearch, type UserSortField } from "../features/admin/types";
import { requireAdmin } from "./guards";
import { rootRoute } from "./root";

const positivePage = (value: unknown) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
};

/** Every key optional (links need not spell the defaults); the page fills the defaults in. */
function userListSearch(search: Record<string, unknown>): Partial<UserListSearch> {
  return {
    page: positivePage(search.page),
    search: typeof search.search === "string" && search.search ? search.search.slice(0, 100) : undefined,
    status: search.status === "active" || search.status === "inactive" ? search.status : undefined,
    sort_by: USER_SORT_FIELDS.includes(search.sort_by as UserSortField) ? (search.sort_by as UserSortField) : undefined,
    sort_order: search.sort_order === "asc" || search.sort_order === "desc" ? search.sort_order : undefined,
  };
}

const adminDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/dashboard",
  beforeLoad: requireAdmin(),
  component: lazyRouteComponent(() => import("../features/admin/dashboard-page"), "DashboardPage"),
});
const adminUsersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/users",
  beforeLoad: requireAdmin(),
  validateSearch: userListSearch,
  component: lazyRouteComponent(() => import("../features/admin/users-page"), "UsersPage"),
});
const adminUserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/users/$userId",
  beforeLoad: (options) => {
    requireAdmin()(options);
    // Without a usable id there is no user to show (spec part 2 §2): back to the list.
    if (!/^[1-9]\d{0,15}$/.test(options.params.userId)) throw redirect({ to: "/admin/users" });
  },
  component: lazyRouteComponent(() => import("../features/admin/user-detail-page"), "UserDetailPage"),
});
const adminLogsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/logs",
  beforeLoad: requireAdmin(),
  validateSearch: (search: Record<string, unknown>): LogSearch => ({
    page: positivePage(search.page),
    action: typeof search.action === "string" && search.action ? search.action.slice(0, 50) : undefined,
    admin_id: positivePage(search.admin_id),
    admin_username:
      typeof search.admin_username === "string" && search.admin_username
        ? search.admin_username.slice(0, 80)
        : undefined,
  }),
  component: lazyRouteComponent(() => import("../features/admin/logs-page"), "LogsPage"),
});

const adminReportsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/reports",
  beforeLoad: requireAdmin(),
  validateSearch: (search: Record<string, unknown>): { status?: "open" | "resolved"; page?: number } => ({
    status: search.status === "resolved" ? "resolved" : search.status === "open" ? "open" : undefined,
    page: positivePage(search.page),
  }),
  component: lazyRouteComponent(() => import("../features/admin/reports-page"), "ReportsPage"),
});

const adminProfanityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/profanity",
  beforeLoad: requireAdmin(),
  component: lazyRouteComponent(() => import("../features/admin/profanity-page"), "ProfanityPage"),
});

export const adminRoutes = [
  adminDashboardRoute,
  adminUsersRoute,
  adminUserRoute,
  adminLogsRoute,
  adminReportsRoute,
  adminProfanityRoute,
] as const;
