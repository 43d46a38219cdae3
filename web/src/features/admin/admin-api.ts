/** The administrator calls of spec part 2 §7, through the app's one API client (bearer + retry rule). */
import { api } from "../../lib/api";
import type {
  AdminUser,
  DashboardStats,
  LogActor,
  LoginHistoryEntry,
  LogListResult,
  LogSearch,
  UserListResult,
  UserListSearch,
} from "./types";

export const USER_PAGE_SIZE = 20;
export const LOG_PAGE_SIZE = 20;
export const LOGIN_HISTORY_SIZE = 10;

export type AccountAction = "activate" | "deactivate" | "require-password-reset" | "grant-admin" | "revoke-admin";

export const adminApi = {
  dashboard: (signal?: AbortSignal) => api.get<DashboardStats>("/api/admin/dashboard", { signal }),

  users: (search: UserListSearch, signal?: AbortSignal) =>
    api.get<UserListResult>("/api/admin/users", {
      signal,
      query: {
        page: search.page,
        size: USER_PAGE_SIZE,
        search: search.search.trim() || undefined,
        is_active: search.status === "all" ? undefined : search.status === "active",
        sort_by: search.sort_by,
        sort_order: search.sort_order,
      },
    }),

  user: (userId: number, signal?: AbortSignal) => api.get<AdminUser>(`/api/admin/users/${userId}`, { signal }),

  /** The spec allows `{logs:[…]}` or a plain array; anything else reads as an empty list. */
  loginHistory: async (userId: number, signal?: AbortSignal): Promise<LoginHistoryEntry[]> => {
    const body = await api.get<unknown>(`/api/admin/users/${userId}/login-history`, {
      signal,
      query: { page: 1, size: LOGIN_HISTORY_SIZE },
    });
    if (Array.isArray(body)) return body as LoginHistoryEntry[];
    const logs = (body as { logs?: unknown } | null)?.logs;
    return Array.isArray(logs) ? (logs as LoginHistoryEntry[]) : [];
  },

  /** The reason is omitted when empty (spec part 2 §5). */
  rename: (userId: number, newUsername: string, reason: string) =>
    api.put<AdminUser>(`/api/admin/users/${userId}/username`, {
      new_username: newUsername.trim(),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    }),

  accountAction: (userId: number, action: AccountAction) => api.post<AdminUser>(`/api/admin/users/${userId}/${action}`),

  logs: (search: LogSearch, signal?: AbortSignal) =>
    api.get<LogListResult>("/api/admin/logs", {
      signal,
      query: {
        page: search.page ?? 1,
        page_size: LOG_PAGE_SIZE,
        action: search.action,
        admin_id: search.admin_id,
        admin_username: search.admin_username,
      },
    }),

  logActors: (signal?: AbortSignal) => api.get<{ admins: LogActor[] }>("/api/admin/logs/admins", { signal }),
};
