import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { SqlDatabase } from "../../db/database";
import { isUniqueViolation } from "../../db/postgres";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import type { ReportAction, RestrictionKind } from "./rules";
import type { NoticeRow, ReportRow, RestrictionRow, WordRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

export type NewReport = Omit<
  ReportRow,
  "id" | "status" | "resolution" | "resolvedWith" | "resolvedById" | "resolvedByName" | "resolvedAt"
>;
export type NewRestriction = Omit<RestrictionRow, "id" | "liftedAt" | "liftedByName">;

export interface Resolution {
  action: ReportAction;
  /** The report the administrator acted on: every report it resolves names it. */
  reportId: number;
  byId: number | null;
  byName: string;
  at: Date;
}

/** A page of report groups (one target, or one target's reports resolved by one action). */
export interface GroupKey {
  targetKey: string;
  resolvedWith: number | null;
}

const count = () => sql<number>`cast(count(*) as integer)`.mapWith(Number);

/**
 * Moderation's only database code, for both engines (db/README.md). Every method runs in `inTransaction`, so one
 * called inside an action's transaction joins it (on PostgreSQL: on its connection) and commits with the admin
 * log row.
 */
function createModerationStore(database: SqlDatabase) {
  const { reports, restrictions, notices, blocks, words } = tablesFor(database, sqliteSchema, pgSchema);
  const unit = <T>(fn: (db: StoreDb) => Promise<T>) => inTransaction(database, fn);
  const read = () => storeDb(database);
  const active = (at: Date) =>
    and(isNull(restrictions.liftedAt), or(isNull(restrictions.endsAt), gt(restrictions.endsAt, at)));

  return {
    transaction: unit,

    /** The report's id, or null when the reporter already has an open report of this target (two at once too). */
    async insertReport(values: NewReport): Promise<number | null> {
      try {
        const [row] = await unit((db) =>
          db
            .insert(reports)
            .values({ ...values, status: "open" })
            .returning({ id: reports.id }),
        );
        return row.id;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    async openReportOf(reporterId: number, targetKey: string) {
      const [row] = await read()
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.reporterId, reporterId), eq(reports.targetKey, targetKey), eq(reports.status, "open")));
      return row?.id;
    },

    async report(id: number): Promise<ReportRow | undefined> {
      const [row] = await read().select().from(reports).where(eq(reports.id, id));
      return row;
    },

    /** One page of groups, the most recent first (open: by their latest report; resolved: by their resolution). */
    async groups(status: "open" | "resolved", limit: number, offset: number) {
      const order = status === "open" ? sql`max(${reports.createdAt})` : sql`max(${reports.resolvedAt})`;
      const keys: GroupKey[] = await read()
        .select({ targetKey: reports.targetKey, resolvedWith: reports.resolvedWith })
        .from(reports)
        .where(eq(reports.status, status))
        .groupBy(reports.targetKey, reports.resolvedWith)
        .orderBy(desc(order), desc(sql`max(${reports.id})`))
        .limit(limit)
        .offset(offset);
      const grouped = read()
        .select({ one: sql`1` })
        .from(reports)
        .where(eq(reports.status, status))
        .groupBy(reports.targetKey, reports.resolvedWith)
        .as("grouped");
      const [{ n }] = await read().select({ n: count() }).from(grouped);
      return { keys, total: n };
    },

    /** The reports of these groups, oldest first. */
    async reportsOf(status: "open" | "resolved", keys: readonly GroupKey[]): Promise<ReportRow[]> {
      if (keys.length === 0) return [];
      const rows = await read()
        .select()
        .from(reports)
        .where(and(eq(reports.status, status), inArray(reports.targetKey, [...new Set(keys.map((k) => k.targetKey))])))
        .orderBy(asc(reports.createdAt), asc(reports.id));
      const wanted = new Set(keys.map((k) => `${k.targetKey}\n${k.resolvedWith}`));
      return rows.filter((row) => wanted.has(`${row.targetKey}\n${row.resolvedWith}`));
    },

    async openCounts() {
      const [row] = await read()
        .select({
          reports: count(),
          targets: sql<number>`cast(count(distinct ${reports.targetKey}) as integer)`.mapWith(Number),
        })
        .from(reports)
        .where(eq(reports.status, "open"));
      return row;
    },

    /** Resolves every open report of the target (a conditional update: of two actions at once one wins) → their ids. */
    async resolveOpen(targetKey: string, resolution: Resolution): Promise<number[]> {
      const rows = await unit((db) =>
        db
          .update(reports)
          .set({
            status: "resolved",
            resolution: resolution.action,
            resolvedWith: resolution.reportId,
            resolvedById: resolution.byId,
            resolvedByName: resolution.byName,
            resolvedAt: resolution.at,
          })
          .where(and(eq(reports.targetKey, targetKey), eq(reports.status, "open")))
          .returning({ id: reports.id }),
      );
      return rows.map((r) => r.id);
    },

    async insertRestriction(values: NewRestriction): Promise<RestrictionRow> {
      const [row] = await unit((db) => db.insert(restrictions).values(values).returning());
      return row;
    },

    async restriction(id: number): Promise<RestrictionRow | undefined> {
      const [row] = await read().select().from(restrictions).where(eq(restrictions.id, id));
      return row;
    },

    /** Restrictions of a kind in force at `at` (every member's; mutes are few). */
    activeOfKind: (kind: RestrictionKind, at: Date): Promise<RestrictionRow[]> =>
      read()
        .select()
        .from(restrictions)
        .where(and(eq(restrictions.kind, kind), active(at))),

    /** A member's restrictions in force at `at`, the latest first. */
    activeOfUser: (userId: number, at: Date, kind?: RestrictionKind): Promise<RestrictionRow[]> =>
      read()
        .select()
        .from(restrictions)
        .where(and(eq(restrictions.userId, userId), kind ? eq(restrictions.kind, kind) : undefined, active(at)))
        .orderBy(desc(restrictions.startsAt), desc(restrictions.id)),

    /**
     * Whether the member still has a restriction of this kind in force, read in the caller's transaction: a lift
     * just made in it counts (on PostgreSQL a plain read, on another connection, would not see it yet).
     */
    inForce: (userId: number, at: Date, kind: RestrictionKind): Promise<boolean> =>
      unit((db) =>
        db
          .select({ id: restrictions.id })
          .from(restrictions)
          .where(and(eq(restrictions.userId, userId), eq(restrictions.kind, kind), active(at)))
          .limit(1),
      ).then((rows) => rows.length > 0),

    /** Lifts a restriction still in force (conditional: lifted or ended already → undefined). */
    async lift(id: number, at: Date, byName: string): Promise<RestrictionRow | undefined> {
      const [row] = await unit((db) =>
        db
          .update(restrictions)
          .set({ liftedAt: at, liftedByName: byName })
          .where(and(eq(restrictions.id, id), active(at)))
          .returning(),
      );
      return row;
    },

    async insertNotice(values: Omit<NoticeRow, "id" | "seenAt">): Promise<NoticeRow> {
      const [row] = await unit((db) => db.insert(notices).values(values).returning());
      return row;
    },

    unseenNotices: (userId: number): Promise<NoticeRow[]> =>
      read()
        .select()
        .from(notices)
        .where(and(eq(notices.userId, userId), isNull(notices.seenAt)))
        .orderBy(asc(notices.createdAt), asc(notices.id)),

    /** The members `userId` blocked, the latest first. */
    blocksOf: (userId: number) =>
      read()
        .select({ blockedId: blocks.blockedId, createdAt: blocks.createdAt })
        .from(blocks)
        .where(eq(blocks.userId, userId))
        .orderBy(desc(blocks.createdAt), desc(blocks.blockedId)),

    async countBlocks(userId: number) {
      const [row] = await read().select({ n: count() }).from(blocks).where(eq(blocks.userId, userId));
      return row.n;
    },

    /** Blocks (idempotent: blocking twice keeps the first time). */
    async block(userId: number, blockedId: number, at: Date) {
      await read().insert(blocks).values({ userId, blockedId, createdAt: at }).onConflictDoNothing();
    },

    /** False when there was no such block. */
    async unblock(userId: number, blockedId: number) {
      const rows = await read()
        .delete(blocks)
        .where(and(eq(blocks.userId, userId), eq(blocks.blockedId, blockedId)))
        .returning({ id: blocks.blockedId });
      return rows.length > 0;
    },

    /** The administrators' changes to the profanity list (one row per word: its latest decision). */
    wordChanges: (): Promise<WordRow[]> => read().select().from(words).orderBy(asc(words.createdAt), asc(words.word)),

    /** Records the word's latest decision (replacing an earlier one). */
    async setWord(row: WordRow) {
      const { word, ...decision } = row;
      await unit((db) => db.insert(words).values(row).onConflictDoUpdate({ target: words.word, set: decision }));
    },

    /** Forgets the word's decision (the data file alone decides again). */
    async forgetWord(word: string) {
      await unit((db) => db.delete(words).where(eq(words.word, word)));
    },

    /** Marks the member's own notice seen; false when there is no such notice of theirs. */
    async markSeen(id: number, userId: number, at: Date) {
      const rows = await read()
        .update(notices)
        .set({ seenAt: at })
        .where(and(eq(notices.id, id), eq(notices.userId, userId)))
        .returning({ id: notices.id });
      return rows.length > 0;
    },
  };
}

export const moderationStoreOf = onePerDatabase(createModerationStore);
export type ModerationStore = ReturnType<typeof createModerationStore>;
