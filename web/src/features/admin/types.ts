import type { PublicUser } from "../../../../modules/accounts";
import type { AdminLogEntry } from "../../../../modules/admin";

/** The administrator view of a user (spec part 2 §3), the server's presentUser object. */
export type AdminUser = PublicUser;
export type AdminLog = AdminLogEntry;

export interface UserListResult {
  users: AdminUser[];
  total: number;
  total_count: number;
  total_pages: number;
  current_page: number;
  page_size: number;
}

export interface LoginHistoryEntry {
  id: number;
  login_time: string;
  ip_address: string | null;
  user_agent: string | null;
}

/** The log page's address (`/admin/logs?page&action&admin_id&admin_username`). */
export interface LogSearch {
  page?: number;
  action?: string;
  admin_id?: number;
  admin_username?: string;
}

/** One actor of the log (`GET /api/admin/logs/admins`): a web administrator by id, a CLI operator by name. */
export interface LogActor {
  admin_id: number | null;
  admin_username: string;
  source: "web" | "cli";
  count: number;
  last_at: string;
}

export interface LogListResult {
  logs: AdminLog[];
  total_count: number;
  current_page: number;
  page_size: number;
  total_pages: number;
}

export interface DailyFigure {
  date: string;
  registrations: number;
  games: number;
}

export interface DashboardStats {
  total_users: number;
  active_users_today: number;
  total_games_played: number;
  games_played_today: number;
  total_admin_actions: number;
  recent_registrations: number;
  daily: DailyFigure[];
}

export const USER_SORT_FIELDS = ["username", "level", "games_played", "last_login_at", "created_at"] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";
export type StatusFilter = "all" | "active" | "inactive";

/** The user list's state, kept in the address (?page&search&status&sort_by&sort_order) so back and reload keep it. */
export interface UserListSearch {
  page: number;
  search: string;
  status: StatusFilter;
  sort_by: UserSortField;
  sort_order: SortOrder;
}
