import { and, count, desc, eq, gt, isNull, lt, max, sql } from "drizzle-orm";
import type { UserRow } from "../../db/core/schema";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { isUniqueViolation, type PgDb } from "../../db/postgres";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import * as sqliteTables from "./schema";
import * as pgTables from "./schema.pg";
import { hashToken, newOpaqueToken, REFRESH_TTL_REMEMBER_MS, REFRESH_TTL_SESSION_MS } from "./tokens";

/**
 * The accounts module's one store, written once for SQLite and PostgreSQL (db/README.md). Each method without a
 * `tx` argument is one unit of work; the `…In(tx, …)` methods write inside the caller's transaction (the service's
 * toggles, which the admin module runs with its audit row). What differs by engine is here, marked "PostgreSQL:".
 */

export type UserValues = Partial<typeof coreSqlite.users.$inferInsert>;
export type AccountChangeRow = typeof sqliteTables.accountChanges.$inferSelect;
export type AccountChangeKind = AccountChangeRow["kind"];

export interface NewUser {
  username: string;
  usernameKey: string;
  email: string;
  passwordHash: string;
  at: Date;
}

export type CreateUserOutcome = { row: UserRow } | { taken: "username" | "email" };

export type RotateOutcome =
  | { kind: "rotated"; userId: number; token: string }
  | { kind: "reused"; userId: number }
  /** Revoked earlier: `reason` says why (`logout`, `reuse_detected`, or a session closure's reason). */
  | { kind: "revoked"; userId: number; reason: string | null }
  | { kind: "invalid" };

/** The feed rows one account change writes (see account-changes.ts). */
export interface FeedEntry {
  userId: number;
  kind: AccountChangeKind;
  reason: string;
}

/** The figures one game changes (users columns), from the member's row before the game. */
export type GameFigures = Pick<
  UserRow,
  | "level"
  | "experience"
  | "coins"
  | "points"
  | "totalEarnedPoints"
  | "goldMedals"
  | "silverMedals"
  | "bronzeMedals"
  | "winStreak"
  | "maxWinStreak"
  | "gamesPlayed"
  | "wpmSum"
  | "accuracySum"
  | "updatedAt"
>;

/** How one member's game is paid: their new figures from their row, or null when a grant row says it was. */
export type PaidMember = { row: UserRow; next: GameFigures | null };

/** The store of this database, made once (`onePerDatabase`). */
export const accountsStore = onePerDatabase(createAccountsStore);

export function createAccountsStore(database: SqlDatabase) {
  const { users } = tablesFor(database, coreSqlite, corePg);
  const { refreshTokens, loginHistory, accountChanges, rewardGrants, passwordResetTokens } = tablesFor(
    database,
    sqliteTables,
    pgTables,
  );
  const read = () => storeDb(database);
  const write = <T>(fn: (tx: StoreDb) => Promise<T>) => inTransaction(database, fn);
  const first = <T>(rows: T[]): T | undefined => rows[0];

  const userIn = async (db: StoreDb, id: number) =>
    first(await db.select().from(users).where(eq(users.id, id)).limit(1));

  /**
   * The user's row, locked until the caller's commit. PostgreSQL: `FOR UPDATE`, so a write that changes the row
   * (a password change, a deactivation) and this transaction go one after the other. SQLite: a write transaction
   * already has the database to itself.
   */
  const lockedUserIn = async (db: StoreDb, id: number): Promise<UserRow | undefined> => {
    if (database.dialect !== "pg") return userIn(db, id);
    const pgUsers = users as unknown as typeof corePg.users;
    return first(await (db as unknown as PgDb).select().from(pgUsers).where(eq(pgUsers.id, id)).for("update"));
  };

  /** Which of the two unique values another user holds (the username first, as the answer names it). */
  async function takenIn(db: StoreDb, usernameKey: string, email: string): Promise<"username" | "email" | null> {
    const byName = await db.select({ id: users.id }).from(users).where(eq(users.usernameKey, usernameKey)).limit(1);
    if (byName.length) return "username";
    const byEmail = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    return byEmail.length ? "email" : null;
  }

  async function issueRefreshTokenIn(db: StoreDb, userId: number, rememberMe: boolean, now: number, family?: string) {
    const token = newOpaqueToken();
    await db.insert(refreshTokens).values({
      userId,
      familyId: family ?? crypto.randomUUID(),
      tokenHash: hashToken(token),
      rememberMe,
      expiresAt: new Date(now + (rememberMe ? REFRESH_TTL_REMEMBER_MS : REFRESH_TTL_SESSION_MS)),
      createdAt: new Date(now),
    });
    return token;
  }

  const tokenRowIn = async (db: StoreDb, presented: string) =>
    first(
      await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(presented)))
        .limit(1),
    );

  /**
   * Marks a token rotated only if it still is live: of two refreshes of one token at once (PostgreSQL runs them side
   * by side; the loser waits for the winner's row lock, then finds it rotated) exactly one rotates, the other is a
   * replay. False when it was not live any more.
   */
  async function claimRotationIn(db: StoreDb, id: number, now: number) {
    const claimed = await db
      .update(refreshTokens)
      .set({ rotatedAt: new Date(now) })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return claimed.length > 0;
  }

  async function voidPasswordResetTokensIn(db: StoreDb, userId: number, now: number) {
    await db
      .update(passwordResetTokens)
      .set({ usedAt: new Date(now) })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  }

  async function revokeFamilyIn(db: StoreDb, familyId: string, now: number, reason: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date(now), revokedReason: reason })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  async function revokeAllForUserIn(db: StoreDb, userId: number, now: number, reason: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date(now), revokedReason: reason })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  const rewards = rewardQueries(database, users, rewardGrants);

  return {
    /** Runs `fn` as one unit of work (nested calls join it): the service's toggles with their feed rows. */
    transaction: write,

    // --- users -------------------------------------------------------------------------------------------------
    findUser: (id: number) => userIn(read(), id),
    userIn,
    findUserByEmail: async (email: string) =>
      first(await read().select().from(users).where(eq(users.email, email)).limit(1)),

    /**
     * Inserts a user unless the username (case-insensitively, by its key) or the e-mail is taken. The checks and
     * the insert share a transaction; on PostgreSQL two registrations may still pass the checks at once, and the
     * unique index refuses the loser, which gets the answer the check would have given.
     */
    async createUser(user: NewUser): Promise<CreateUserOutcome> {
      try {
        return await write(async (tx) => {
          const taken = await takenIn(tx, user.usernameKey, user.email);
          if (taken) return { taken };
          const { at, ...values } = user;
          const [row] = await tx
            .insert(users)
            .values({ ...values, createdAt: at, updatedAt: at })
            .returning();
          return { row };
        });
      } catch (error) {
        const taken = isUniqueViolation(error) ? await takenIn(read(), user.usernameKey, user.email) : null;
        if (!taken) throw error;
        return { taken };
      }
    },

    /** The id of the user whose username has this key, if any (inside the caller's transaction). */
    usernameOwnerIn: async (tx: StoreDb, key: string) =>
      first(await tx.select({ id: users.id }).from(users).where(eq(users.usernameKey, key)).limit(1))?.id,

    async updateUserIn(tx: StoreDb, userId: number, values: UserValues, at: number) {
      await tx
        .update(users)
        .set({ ...values, updatedAt: new Date(at) })
        .where(eq(users.id, userId));
    },

    /**
     * A successful login: its history row, the login counters, and (unless a reset is required) the first refresh
     * token of a new family, in one transaction. The user's row is locked and read again first: a password change,
     * deactivation or forced reset that committed while the password was being checked (~20 ms) is seen here, and
     * one that comes later waits for this commit, then closes this session with the others. `at` is read after the
     * lock, so the session is older than any closure that waited for it. `stale`: the password checked is not the
     * account's any more (the login failed); `inactive`: deactivated meanwhile. Neither writes anything.
     */
    async recordLogin(
      userId: number,
      login: { verifiedHash: string; now: () => number; ip: string | null; userAgent: string | null },
      rememberMe: boolean,
    ): Promise<
      | { kind: "stale" }
      | { kind: "inactive" }
      | { kind: "recorded"; row: UserRow; at: number; refreshToken: string | null }
    > {
      return write(async (tx) => {
        const current = await lockedUserIn(tx, userId);
        if (!current || current.passwordHash !== login.verifiedHash) return { kind: "stale" };
        if (!current.isActive) return { kind: "inactive" };
        const now = login.now();
        const at = new Date(now);
        await tx
          .insert(loginHistory)
          .values({ userId, loginTime: at, ipAddress: login.ip, userAgent: login.userAgent });
        const [row] = await tx
          .update(users)
          .set({ loginCount: sql`${users.loginCount} + 1`, lastLoginAt: at })
          .where(eq(users.id, userId))
          .returning();
        // A reset-required login gets no refresh token: it cannot outlive the reset.
        const refreshToken = row.passwordResetRequired ? null : await issueRefreshTokenIn(tx, userId, rememberMe, now);
        return { kind: "recorded", row, at: now, refreshToken };
      });
    },

    async loginHistoryPage(userId: number, limit: number, offset: number) {
      const db = read();
      const where = eq(loginHistory.userId, userId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(loginHistory)
          .where(where)
          .orderBy(desc(loginHistory.loginTime), desc(loginHistory.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(loginHistory).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    // --- password reset links ("비밀번호 찾기") -------------------------------------------------------------------
    /**
     * A new one-time token for the user, valid until `now + ttlMs`; only its SHA-256 is stored. Null when the user
     * is gone, or inactive and `activeOnly`. The user's row is locked first: a password change or a deactivation
     * (which void the unused tokens in their transaction, after updating that row) either commits before (then it
     * is seen here) or waits for this insert (then voids it). Without the lock PostgreSQL could commit this insert
     * after their void had run, and the link would outlive them.
     */
    issuePasswordResetToken: (userId: number, now: number, ttlMs: number, options: { activeOnly: boolean }) =>
      write(async (tx) => {
        const row = await lockedUserIn(tx, userId);
        if (!row || (options.activeOnly && !row.isActive)) return null;
        const token = newOpaqueToken();
        await tx.insert(passwordResetTokens).values({
          userId,
          tokenHash: hashToken(token),
          createdAt: new Date(now),
          expiresAt: new Date(now + ttlMs),
        });
        return token;
      }),

    /**
     * Uses a reset token inside the caller's transaction: a conditional update, so of two uses at once exactly one
     * wins. Every other open token of the user is used up with it (one reset per request). The user's id, or null
     * when the token is unknown, used or expired. The user's row is locked before any token row, the order of every
     * other writer here (a password change, a deactivation, an issue): PostgreSQL cannot deadlock on them, and a link
     * being issued meanwhile is either voided with the others or issued after this change.
     */
    consumePasswordResetTokenIn: async (tx: StoreDb, presented: string, now: number): Promise<number | null> => {
      const tokenHash = hashToken(presented);
      const [found] = await tx
        .select({ userId: passwordResetTokens.userId })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.tokenHash, tokenHash))
        .limit(1);
      if (!found || !(await lockedUserIn(tx, found.userId))) return null;
      const claimed = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date(now) })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date(now)),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (claimed.length === 0) return null;
      await voidPasswordResetTokensIn(tx, found.userId, now);
      return found.userId;
    },

    /**
     * When an unused, unexpired reset token expires (epoch ms), or null: a plain read that changes nothing, so the
     * reset page can check its link when it opens and the link stays usable (consumePasswordResetTokenIn decides).
     */
    openPasswordResetTokenExpiry: async (presented: string, now: number): Promise<number | null> => {
      const [found] = await read()
        .select({ expiresAt: passwordResetTokens.expiresAt })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, hashToken(presented)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date(now)),
          ),
        )
        .limit(1);
      return found ? new Date(found.expiresAt).getTime() : null;
    },

    /**
     * Uses up every open reset token of the user (a password change, a deactivation), inside the caller's
     * transaction, after it has updated (so locked) the user's row: that orders it with `issuePasswordResetToken`.
     */
    voidPasswordResetTokensIn,

    // --- refresh tokens ----------------------------------------------------------------------------------------
    /** The first refresh token of a new family (a login); only its SHA-256 is stored. */
    issueRefreshToken: (userId: number, rememberMe: boolean, now: number) =>
      write((tx) => issueRefreshTokenIn(tx, userId, rememberMe, now)),

    /**
     * Rotation with reuse detection: a live token is marked rotated and replaced by a new one of the same family;
     * a token that was already rotated means two parties hold it, so the whole family is revoked.
     */
    rotateRefreshToken: (presented: string, now: number): Promise<RotateOutcome> =>
      write(async (tx) => {
        const row = await tokenRowIn(tx, presented);
        if (!row) return { kind: "invalid" };
        if (row.revokedAt) return { kind: "revoked", userId: row.userId, reason: row.revokedReason };
        if (!row.rotatedAt && row.expiresAt.getTime() <= now) return { kind: "invalid" };
        const replayed = row.rotatedAt !== null || !(await claimRotationIn(tx, row.id, now));
        if (replayed) {
          await revokeFamilyIn(tx, row.familyId, now, "reuse_detected");
          return { kind: "reused", userId: row.userId };
        }
        const token = await issueRefreshTokenIn(tx, row.userId, row.rememberMe, now, row.familyId);
        return { kind: "rotated", userId: row.userId, token };
      }),

    /** Logout: revokes the presented token's family (rotated descendants included). Unknown tokens are ignored. */
    revokeRefreshToken: (presented: string, now: number): Promise<number | null> =>
      write(async (tx) => {
        const row = await tokenRowIn(tx, presented);
        if (!row) return null;
        await revokeFamilyIn(tx, row.familyId, now, "logout");
        return row.userId;
      }),

    revokeAllForUserIn,
    revokeAllForUser: (userId: number, now: number, reason: string) =>
      write((tx) => revokeAllForUserIn(tx, userId, now, reason)),

    /** Every refresh token row of a user, oldest first (tests and diagnostics). */
    refreshTokensOf: (userId: number) =>
      read().select().from(refreshTokens).where(eq(refreshTokens.userId, userId)).orderBy(refreshTokens.id),

    // --- the account changes feed ------------------------------------------------------------------------------
    /**
     * Writes feed rows inside the caller's transaction. PostgreSQL: the table is locked against other writers
     * until the commit, so ids are handed out in commit order; otherwise a poller could read id 11 while id 10 is
     * still uncommitted, move past it and never see it. Plain reads are not blocked. (SQLite has one writer.)
     */
    async recordChangesIn(tx: StoreDb, origin: string, entries: readonly FeedEntry[], at: number) {
      if (entries.length === 0) return;
      if (database.dialect === "pg") {
        await (tx as unknown as PgDb).execute(sql`LOCK TABLE accounts_session_closures IN EXCLUSIVE MODE`);
      }
      await tx.insert(accountChanges).values(entries.map((entry) => ({ ...entry, origin, at: new Date(at) })));
    },

    /** When the user's sessions were last closed (epoch ms) within the kept rows; null when not. */
    async sessionsClosedAt(userId: number): Promise<number | null> {
      const [row] = await read()
        .select({ at: max(accountChanges.at) })
        .from(accountChanges)
        .where(and(eq(accountChanges.userId, userId), eq(accountChanges.kind, "sessions_closed")));
      return row?.at ? new Date(row.at).getTime() : null;
    },

    latestChangeId: async () =>
      (
        await read()
          .select({ id: max(accountChanges.id) })
          .from(accountChanges)
      )[0]?.id ?? 0,

    changesAfter: (id: number, limit: number) =>
      read().select().from(accountChanges).where(gt(accountChanges.id, id)).orderBy(accountChanges.id).limit(limit),

    pruneChanges: (before: number) =>
      write(async (tx) => {
        await tx.delete(accountChanges).where(lt(accountChanges.at, new Date(before)));
      }),

    // --- game rewards ------------------------------------------------------------------------------------------
    /**
     * Pays one game's members in ONE transaction, at most once per (game key, member): a member's grant row is
     * written with their figures, so a repeated call pays nothing twice. `figures` computes a member's new figures
     * from their row. Grant rows older than `pruneBefore` go. Members are locked in id order (PostgreSQL: two games
     * paying the same members cannot deadlock) and the answer says, per member still there, what was paid.
     */
    payGame: (
      game: { key: string; at: number; pruneBefore: number },
      members: readonly { userId: number; figures: (row: UserRow) => GameFigures }[],
    ): Promise<Map<number, PaidMember>> =>
      write(async (tx) => {
        const queries = rewards(tx);
        await queries.prune(game.pruneBefore);
        const paid = new Map<number, PaidMember>();
        for (const member of [...members].sort((a, b) => a.userId - b.userId)) {
          const row = await queries.lockUser(member.userId);
          if (!row) continue;
          if (!(await queries.grant(game.key, member.userId, game.at))) {
            paid.set(member.userId, { row, next: null });
            continue;
          }
          const next = member.figures(row);
          await queries.setFigures(member.userId, next);
          paid.set(member.userId, { row, next });
        }
        return paid;
      }),

    /** Grant rows of a user, newest first (tests). */
    rewardGrantsOf: (userId: number) =>
      read()
        .select()
        .from(rewardGrants)
        .where(eq(rewardGrants.userId, userId))
        .orderBy(desc(rewardGrants.grantedAt), desc(rewardGrants.gameKey)),
  };
}
export type AccountsStore = ReturnType<typeof createAccountsStore>;

interface RewardQueries {
  /** The member's row, locked until the commit (PostgreSQL: a concurrent game of theirs waits, no lost update). */
  lockUser(id: number): Promise<UserRow | undefined>;
  /** Writes the grant row; false when it was there already (paid before). */
  grant(gameKey: string, userId: number, at: number): Promise<boolean>;
  setFigures(id: number, figures: GameFigures): Promise<void>;
  prune(before: number): Promise<void>;
}

const FIGURE_COLUMNS = [
  "level",
  "experience",
  "coins",
  "points",
  "totalEarnedPoints",
  "goldMedals",
  "silverMedals",
  "bronzeMedals",
  "winStreak",
  "maxWinStreak",
  "gamesPlayed",
  "wpmSum",
  "accuracySum",
  "updatedAt",
] as const satisfies readonly (keyof GameFigures)[];

/**
 * The reward statements, the one place where the engines get their own code (the scoring path is hot):
 * - SQLite: prepared once on the one connection, so each transaction reuses them (they run inside whichever
 *   transaction is open). Building and compiling them per game cost ~15x the work (bench/README.md, scoring).
 * - PostgreSQL: built on the transaction's handle (postgres.js prepares each statement per connection itself), and
 *   the member's row is read `FOR UPDATE`: under READ COMMITTED two games of one member would otherwise both read
 *   the old figures and the second write would lose the first's rewards.
 */
function rewardQueries(
  database: SqlDatabase,
  users: typeof coreSqlite.users,
  rewardGrants: typeof sqliteTables.rewardGrants,
): (tx: StoreDb) => RewardQueries {
  if (database.dialect === "pg") {
    const pgUsers = users as unknown as typeof corePg.users;
    return (tx) => ({
      lockUser: async (id) =>
        (await (tx as unknown as PgDb).select().from(pgUsers).where(eq(pgUsers.id, id)).for("update"))[0],
      grant: async (gameKey, userId, at) =>
        (
          await tx
            .insert(rewardGrants)
            .values({ gameKey, userId, grantedAt: new Date(at) })
            .onConflictDoNothing()
            .returning({ userId: rewardGrants.userId })
        ).length > 0,
      setFigures: async (id, figures) => {
        await tx.update(users).set(figures).where(eq(users.id, id));
      },
      prune: async (before) => {
        await tx.delete(rewardGrants).where(lt(rewardGrants.grantedAt, new Date(before)));
      },
    });
  }
  const db = database.db;
  const set = Object.fromEntries(FIGURE_COLUMNS.map((c) => [c, sql.placeholder(c)]));
  const prepared = {
    select: db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
    update: db
      .update(users)
      .set(set)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
    grant: db
      .insert(rewardGrants)
      .values({
        gameKey: sql.placeholder("gameKey"),
        userId: sql.placeholder("userId"),
        grantedAt: sql.placeholder("at"),
      })
      .onConflictDoNothing()
      .returning({ userId: rewardGrants.userId })
      .prepare(),
    prune: db
      .delete(rewardGrants)
      .where(lt(rewardGrants.grantedAt, sql.placeholder("before")))
      .prepare(),
  };
  const queries: RewardQueries = {
    lockUser: async (id) => (await prepared.select.execute({ id }))[0],
    grant: async (gameKey, userId, at) =>
      (await prepared.grant.execute({ gameKey, userId, at: new Date(at) })).length > 0,
    setFigures: async (id, figures) => {
      await prepared.update.execute({ ...figures, id });
    },
    // Epoch ms: a placeholder in a WHERE is bound as given (only insert values go through the column's mapping).
    prune: async (before) => {
      await prepared.prune.execute({ before });
    },
  };
  return () => queries;
}
