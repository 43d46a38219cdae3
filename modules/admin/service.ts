import type { StoreDb } from "../../db/store";
import { type AccountChange, type AccountsService, presentUser } from "../accounts";
import { usernameKey } from "../kernel/account-rules";
import { badRequest, notFound } from "../kernel/errors";
import { DAY_MS, seoulDate, seoulDayStart } from "../kernel/seoul-time";
import type { GameStatsProvider } from "./game-stats";
import { REASON_MAX, type UserSortField } from "./model";
import type { AdminLogRow } from "./schema";
import type { AdminStore } from "./store";

/** Who acts: a logged-in administrator (web) or the CLI's operator (no user id, a name like `cli:root`). */
export interface Actor {
  id: number | null;
  username: string;
  source: "web" | "cli";
}

/** Views of one user by one admin closer than this share one log row. */
export const VIEW_COLLAPSE_MS = 10 * 60 * 1000;

export const ACTIONS = {
  viewUsers: "view_users",
  viewUser: "view_user",
  updateUsername: "update_username",
  activateUser: "activate_user",
  deactivateUser: "deactivate_user",
  requirePasswordReset: "require_password_reset",
  grantAdmin: "grant_admin",
  revokeAdmin: "revoke_admin",
  issueResetLink: "issue_reset_link",
  deletePost: "delete_post",
  deleteComment: "delete_comment",
  createRoom: "create_room",
  importSentences: "import_sentences",
} as const;

export const USER_NOT_FOUND = "사용자를 찾을 수 없습니다.";
export const SELF_DEACTIVATE = "자기 자신의 계정은 비활성화할 수 없습니다.";
export const SELF_DEMOTE = "자기 자신의 관리자 권한은 해제할 수 없습니다.";

export const DASHBOARD_DAYS = 30;
const RECENT_REGISTRATION_DAYS = 7;

export interface UserListOptions {
  page: number;
  size: number;
  search?: string;
  searchUsername?: string;
  isActive?: boolean;
  sortBy: UserSortField;
  sortOrder: "asc" | "desc";
}

export interface LogListOptions {
  page: number;
  pageSize: number;
  action?: string;
  targetUserId?: number;
  /** A web administrator (by account id: their name may have changed since). */
  adminId?: number;
  /** An actor by the name written at the time (how CLI operators, who have no id, are found). */
  adminUsername?: string;
}

const totalPages = (total: number, size: number) => Math.ceil(total / size);

export const REASON_TOO_LONG = `사유는 ${REASON_MAX}자 이하여야 합니다.`;

/** The CLI passes reasons unchecked by a schema: the service enforces the same limit as the API. */
function cleanReason(reason: string | null | undefined): string | undefined {
  const text = reason?.trim();
  if (text && [...text].length > REASON_MAX) throw badRequest(REASON_TOO_LONG);
  return text || undefined;
}

/** Only the details that say something: empty strings and undefined are dropped; nothing left means null. */
function detailsText(details: Record<string, unknown> | undefined): string | null {
  if (!details) return null;
  const kept = Object.entries(details).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return kept.length ? JSON.stringify(Object.fromEntries(kept)) : null;
}

export function presentLog(row: AdminLogRow) {
  return {
    id: row.id,
    admin_id: row.adminId,
    admin_username: row.adminUsername,
    action: row.action,
    target_user_id: row.targetUserId,
    target_username: row.targetUsername,
    details: row.details,
    source: row.source,
    created_at: row.createdAt.toISOString(),
  };
}
export type AdminLogEntry = ReturnType<typeof presentLog>;

export interface AdminDeps {
  store: AdminStore;
  accounts: AccountsService;
  now: () => number;
  gameStats: () => GameStatsProvider;
}

/** One of the accounts service's toggles, run inside the caller's transaction. */
type Toggle = (tx: StoreDb) => AccountChange | Promise<AccountChange>;

type LogTarget = { id: number; username: string } | null;

export function createAdminService(deps: AdminDeps) {
  const { store, accounts, now } = deps;

  /**
   * Appends an audit row. Called inside a transaction (`store.transaction`) it joins it, so the row commits or rolls
   * back with the change it records, on either engine.
   */
  function writeLog(actor: Actor, action: string, target: LogTarget, details?: Record<string, unknown>) {
    return store.writeLog({
      adminId: actor.id,
      adminUsername: actor.username,
      action,
      targetUserId: target?.id ?? null,
      targetUsername: target?.username ?? null,
      details: detailsText(details),
      source: actor.source,
      createdAt: new Date(now()),
    });
  }

  /**
   * The CLI's user argument: a numeric id, an e-mail (it has an @), else a username, case-insensitively (names are
   * unique that way). A username is never digits only and never holds an @, so the three readings never overlap.
   */
  async function resolveUser(ref: string): Promise<number> {
    const trimmed = ref.trim();
    if (/^\d+$/.test(trimmed) || trimmed.includes("@")) return (await accounts.findByEmailOrId(trimmed)).id;
    const id = await store.userIdByUsernameKey(usernameKey(trimmed));
    if (id === undefined) throw notFound(USER_NOT_FOUND);
    return id;
  }

  async function listUsers(actor: Actor, options: UserListOptions) {
    const { rows, total } = await store.listUsers({
      filter: {
        search: options.search?.trim() || undefined,
        searchUsername: options.searchUsername?.trim() || undefined,
        isActive: options.isActive,
      },
      sortBy: options.sortBy,
      sortOrder: options.sortOrder,
      limit: options.size,
      offset: (options.page - 1) * options.size,
    });
    await writeLog(actor, ACTIONS.viewUsers, null, {
      search: options.search?.trim(),
      search_username: options.searchUsername?.trim(),
      is_active: options.isActive,
      page: options.page > 1 ? options.page : undefined,
    });
    return {
      users: rows.map(presentUser),
      total,
      total_count: total,
      total_pages: totalPages(total, options.size),
      current_page: options.page,
      page_size: options.size,
    };
  }

  /** Repeated views of one user by one admin within 10 minutes are one log row (its time the latest, `views` n). */
  async function showUser(actor: Actor, userId: number) {
    const row = await accounts.requireById(userId);
    const at = now();
    await store.writeOrCollapseLog(
      {
        adminId: actor.id,
        adminUsername: actor.username,
        action: ACTIONS.viewUser,
        targetUserId: row.id,
        targetUsername: row.username,
        details: null,
        source: actor.source,
        createdAt: new Date(at),
      },
      new Date(at - VIEW_COLLAPSE_MS),
    );
    return presentUser(row);
  }

  /** The rename and its audit row commit together or not at all; sockets hear of it after the commit. */
  async function renameUser(actor: Actor, userId: number, newUsername: string, reason?: string | null) {
    const why = cleanReason(reason);
    const change = await store.transaction(async (tx) => {
      const { previous, username, change } = await accounts.renameUserTx(tx, userId, newUsername);
      await writeLog(
        actor,
        ACTIONS.updateUsername,
        { id: userId, username },
        { old_username: previous, new_username: username, reason: why },
      );
      return change;
    });
    await accounts.announce(change);
    return presentUser(await accounts.requireById(userId));
  }

  /**
   * An account toggle and its audit row in one transaction: a failed audit write rolls the change back, and a
   * refused change writes no row. The accounts events (sockets closed, identity refreshed) follow the commit.
   */
  async function logged(actor: Actor, action: string, userId: number, reason: string | undefined, toggle: Toggle) {
    const change = await store.transaction(async (tx) => {
      // Read on the transaction's own connection: a read from the pool here would need a second connection per
      // toggle, and on PostgreSQL ten toggles at once (the pool's size) would each hold one and wait for another
      // for ever.
      const row = await accounts.requireByIdTx(tx, userId);
      const result = await toggle(tx);
      await writeLog(actor, action, row, { reason });
      return result;
    });
    await accounts.announce(change);
    return presentUser(await accounts.requireById(userId));
  }

  async function setActive(actor: Actor, userId: number, active: boolean, reason?: string | null) {
    const why = cleanReason(reason);
    if (!active && actor.id === userId) throw badRequest(SELF_DEACTIVATE);
    const action = active ? ACTIONS.activateUser : ACTIONS.deactivateUser;
    return logged(actor, action, userId, why, (tx) => accounts.setActiveTx(tx, userId, active));
  }

  async function setAdmin(actor: Actor, userId: number, isAdmin: boolean, reason?: string | null) {
    const why = cleanReason(reason);
    if (!isAdmin && actor.id === userId) throw badRequest(SELF_DEMOTE);
    const action = isAdmin ? ACTIONS.grantAdmin : ACTIONS.revokeAdmin;
    return logged(actor, action, userId, why, (tx) => accounts.setAdminTx(tx, userId, isAdmin));
  }

  async function requirePasswordReset(actor: Actor, userId: number, reason?: string | null) {
    const why = cleanReason(reason);
    return logged(actor, ACTIONS.requirePasswordReset, userId, why, (tx) =>
      accounts.requirePasswordResetTx(tx, userId),
    );
  }

  /**
   * A one-time password link (30 minutes) for an operator to hand over, logged (the link itself is not: it opens
   * the account). The account's sessions stay until the link is used.
   */
  async function issueResetLink(actor: Actor, userId: number) {
    const row = await accounts.requireById(userId);
    const link = await accounts.resetLink(userId);
    await writeLog(actor, ACTIONS.issueResetLink, row);
    return { user: presentUser(row), link };
  }

  async function listLogs(options: LogListOptions) {
    const { rows, total } = await store.listLogs({
      action: options.action,
      targetUserId: options.targetUserId,
      adminId: options.adminId,
      adminUsername: options.adminUsername,
      limit: options.pageSize,
      offset: (options.page - 1) * options.pageSize,
    });
    return {
      logs: rows.map(presentLog),
      total_count: total,
      current_page: options.page,
      page_size: options.pageSize,
      total_pages: totalPages(total, options.pageSize),
    };
  }

  /**
   * Who wrote the log, for the console's administrator filter, most recently active first. A web administrator is
   * one entry however often renamed (by id, under their latest name in the log); CLI operators are their names.
   */
  async function logAdmins() {
    const byActor = new Map<
      string,
      { admin_id: number | null; admin_username: string; source: "web" | "cli"; count: number; last: number }
    >();
    for (const row of await store.logActors()) {
      const key = row.adminId === null ? `${row.source}:${row.adminUsername}` : `id:${row.adminId}`;
      const last = row.lastAt ? new Date(row.lastAt).getTime() : 0;
      const seen = byActor.get(key);
      if (!seen) {
        byActor.set(key, {
          admin_id: row.adminId,
          admin_username: row.adminUsername,
          source: row.source,
          count: row.n,
          last,
        });
        continue;
      }
      seen.count += row.n;
      if (last > seen.last) Object.assign(seen, { admin_username: row.adminUsername, source: row.source, last });
    }
    const admins = [...byActor.values()]
      .sort((a, b) => b.last - a.last || a.admin_username.localeCompare(b.admin_username))
      .map(({ last, ...actor }) => ({ ...actor, last_at: new Date(last).toISOString() }));
    return { admins };
  }

  async function registrationsPerDay(from: number): Promise<Map<string, number>> {
    const rows = await store.registrationsPerDay(new Date(from));
    return new Map(rows.map((r) => [seoulDate(r.day * DAY_MS), r.n]));
  }

  async function dashboard() {
    const at = now();
    const today = seoulDayStart(at);
    const games = deps.gameStats();
    const firstDay = today - (DASHBOARD_DAYS - 1) * DAY_MS;
    const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => firstDay + i * DAY_MS);
    // Every read is asynchronous (either engine; the games module's own store): all of them at once.
    const [registrations, totalUsers, activeToday, recent, adminActions, totalGames, ...gamesPerDay] =
      await Promise.all([
        registrationsPerDay(firstDay),
        store.countUsers(),
        // last_login_at is the latest login, so "it is today" is exactly "logged in today".
        store.countUsers({ lastLoginAt: new Date(today) }),
        store.countUsers({ createdAt: new Date(at - RECENT_REGISTRATION_DAYS * DAY_MS) }),
        store.countLogs(),
        games.countGames(),
        ...days.map((from) => games.countGames({ from, to: from + DAY_MS })),
      ]);
    const daily = days.map((from, i) => {
      const date = seoulDate(from);
      return { date, registrations: registrations.get(date) ?? 0, games: gamesPerDay[i] };
    });
    return {
      total_users: totalUsers,
      active_users_today: activeToday,
      total_games_played: totalGames,
      games_played_today: daily[daily.length - 1].games,
      total_admin_actions: adminActions,
      recent_registrations: recent,
      daily,
    };
  }

  return {
    writeLog,
    resolveUser,
    listUsers,
    showUser,
    renameUser,
    setActive,
    setAdmin,
    requirePasswordReset,
    issueResetLink,
    loginHistory: async (userId: number, page: number, size: number) => accounts.loginHistoryPage(userId, page, size),
    listLogs,
    logAdmins,
    dashboard,
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
