import { and, asc, avg, count, desc, eq, gte, max, sql, sum } from "drizzle-orm";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import type { DayRow, GoalRow, ResultRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

export type { DayRow, GoalRow, ResultRow };

/** One unit's keystrokes in a result (a jamo, "space", or a transition). */
export interface UnitRecord {
  unit: string;
  hits: number;
  errors: number;
  timeMs: number;
  timed: number;
}

export interface ResultRecord {
  userId: number;
  clientId: string;
  kind: string;
  textId: string;
  layout: string;
  wpm: number;
  accuracy: number;
  keystrokes: number;
  errorCount: number;
  durationMs: number;
  day: string;
  merged: boolean;
  finishedAt: number;
  createdAt: number;
  units: readonly UnitRecord[];
  /** The practice time it may count towards the day's paid minutes (0: it pays nothing). */
  creditableMs: number;
  /** What the day's paid time still open lets it pay: the experience of `countedMs` of this result. */
  experienceFor: (countedMs: number) => number;
}

export interface RecordOutcome {
  row: ResultRow;
  /** False when the client's id was stored before: nothing was added this time. */
  fresh: boolean;
}

/** The store of this database, made once (`onePerDatabase`). */
export const practiceStoreOf = onePerDatabase(createPracticeStore);

/**
 * The practice module's tables on either engine (db/README.md), each write one transaction. A result is stored at
 * most once per (member, client id) — the unique index decides, so two copies arriving at once on two processes
 * store one — and everything it adds (the day's keystrokes, minutes, experience) is added in the same transaction,
 * only by the copy that stored it. The member's day row is upserted first: on PostgreSQL that write takes the row's
 * lock, so two results of one member settle the day's paid minutes one after the other.
 */
export function createPracticeStore(database: SqlDatabase) {
  const { results, jamoDays, days, goals, settings } = tablesFor(database, sqliteSchema, pgSchema);
  const read = () => storeDb(database);

  async function addUnits(tx: StoreDb, r: ResultRecord) {
    for (const u of r.units) {
      await tx
        .insert(jamoDays)
        .values({
          userId: r.userId,
          layout: r.layout,
          day: r.day,
          unit: u.unit,
          hits: u.hits,
          errors: u.errors,
          timeMs: u.timeMs,
          timed: u.timed,
        })
        .onConflictDoUpdate({
          target: [jamoDays.userId, jamoDays.layout, jamoDays.day, jamoDays.unit],
          set: {
            hits: sql`${jamoDays.hits} + excluded.hits`,
            errors: sql`${jamoDays.errors} + excluded.errors`,
            timeMs: sql`${jamoDays.timeMs} + excluded.time_ms`,
            timed: sql`${jamoDays.timed} + excluded.timed`,
          },
        });
    }
  }

  /** Adds the result's time to its day (taking the day row's lock) and pays what the day's 30 minutes leave open. */
  async function addToDay(tx: StoreDb, r: ResultRecord, cap: number): Promise<number> {
    const at = new Date(r.createdAt);
    await tx
      .insert(days)
      .values({ userId: r.userId, day: r.day, practiceMs: 0, paidMs: 0, experience: 0, results: 0, updatedAt: at })
      .onConflictDoUpdate({ target: [days.userId, days.day], set: { updatedAt: at } });
    const [day] = await tx
      .select()
      .from(days)
      .where(and(eq(days.userId, r.userId), eq(days.day, r.day)));
    const counted = Math.max(0, Math.min(r.creditableMs, cap - day!.paidMs));
    const experience = counted > 0 ? r.experienceFor(counted) : 0;
    await tx
      .update(days)
      .set({
        practiceMs: day!.practiceMs + r.durationMs,
        paidMs: day!.paidMs + counted,
        experience: day!.experience + experience,
        results: day!.results + 1,
      })
      .where(and(eq(days.userId, r.userId), eq(days.day, r.day)));
    return experience;
  }

  return {
    /**
     * Stores a result once; the first time, adds its keystrokes to the day's statistics and its time to the day,
     * paying experience for what the day's `paidMsPerDay` (`cap`) leaves open. A copy stored before answers the
     * stored row (`fresh: false`) and changes nothing.
     */
    recordResult: (r: ResultRecord, cap: number) =>
      inTransaction(database, async (tx): Promise<RecordOutcome> => {
        const [inserted] = await tx
          .insert(results)
          .values({
            userId: r.userId,
            clientId: r.clientId,
            kind: r.kind,
            textId: r.textId,
            layout: r.layout,
            wpm: r.wpm,
            accuracy: r.accuracy,
            keystrokes: r.keystrokes,
            errorCount: r.errorCount,
            durationMs: r.durationMs,
            day: r.day,
            merged: r.merged,
            experience: 0,
            finishedAt: new Date(r.finishedAt),
            createdAt: new Date(r.createdAt),
          })
          .onConflictDoNothing()
          .returning();
        if (!inserted) {
          const [stored] = await tx
            .select()
            .from(results)
            .where(and(eq(results.userId, r.userId), eq(results.clientId, r.clientId)));
          return { row: stored!, fresh: false };
        }
        await addUnits(tx, r);
        const experience = await addToDay(tx, r, cap);
        if (experience > 0) await tx.update(results).set({ experience }).where(eq(results.id, inserted.id));
        return { row: { ...inserted, experience }, fresh: true };
      }),

    /** The result's experience reached the account (a retry of the same result pays no more). */
    markPaid: (id: number, at: number) =>
      inTransaction(database, async (tx) => {
        await tx
          .update(results)
          .set({ paidAt: new Date(at) })
          .where(eq(results.id, id));
      }),

    /** The member's keystrokes per unit, added up over the days from `fromDay` on. */
    unitTotals: (userId: number, layout: string, fromDay: string) =>
      read()
        .select({
          unit: jamoDays.unit,
          hits: sum(jamoDays.hits).mapWith(Number),
          errors: sum(jamoDays.errors).mapWith(Number),
          timeMs: sum(jamoDays.timeMs).mapWith(Number),
          timed: sum(jamoDays.timed).mapWith(Number),
        })
        .from(jamoDays)
        .where(and(eq(jamoDays.userId, userId), eq(jamoDays.layout, layout), gte(jamoDays.day, fromDay)))
        .groupBy(jamoDays.unit),

    /** One unit's keystrokes day by day from `fromDay` on, oldest first. */
    unitDays: (userId: number, layout: string, unit: string, fromDay: string) =>
      read()
        .select()
        .from(jamoDays)
        .where(
          and(
            eq(jamoDays.userId, userId),
            eq(jamoDays.layout, layout),
            eq(jamoDays.unit, unit),
            gte(jamoDays.day, fromDay),
          ),
        )
        .orderBy(asc(jamoDays.day)),

    /** Results per day and kind from `fromDay` on: how many, their mean speed and accuracy, their time. */
    kindDays: (userId: number, fromDay: string) =>
      read()
        .select({
          day: results.day,
          kind: results.kind,
          results: count(),
          wpm: avg(results.wpm).mapWith(Number),
          accuracy: avg(results.accuracy).mapWith(Number),
          durationMs: sum(results.durationMs).mapWith(Number),
        })
        .from(results)
        .where(and(eq(results.userId, userId), gte(results.day, fromDay)))
        .groupBy(results.day, results.kind)
        .orderBy(asc(results.day), asc(results.kind)),

    /** The member's practice days, newest first (`limit` of them). */
    recentDays: (userId: number, limit: number): Promise<DayRow[]> =>
      read().select().from(days).where(eq(days.userId, userId)).orderBy(desc(days.day)).limit(limit),

    /** The member's target, if they set one. */
    async goal(userId: number): Promise<GoalRow | null> {
      const [row] = await read().select().from(goals).where(eq(goals.userId, userId));
      return row ?? null;
    },

    /** Sets (or replaces) the member's target. */
    setGoal: (goal: { userId: number; wpm: number; accuracy: number; at: number }) =>
      inTransaction(database, async (tx): Promise<GoalRow> => {
        const values = { wpm: goal.wpm, accuracy: goal.accuracy, updatedAt: new Date(goal.at) };
        const [row] = await tx
          .insert(goals)
          .values({ userId: goal.userId, ...values })
          .onConflictDoUpdate({ target: goals.userId, set: values })
          .returning();
        return row!;
      }),

    /** Removes the member's target (nothing to remove is no error). */
    clearGoal: (userId: number) =>
      inTransaction(database, async (tx) => {
        await tx.delete(goals).where(eq(goals.userId, userId));
      }),

    /** The layout the member chose, if they ever chose one. */
    async layout(userId: number): Promise<string | null> {
      const [row] = await read().select({ layout: settings.layout }).from(settings).where(eq(settings.userId, userId));
      return row?.layout ?? null;
    },

    /** Remembers the member's layout. */
    setLayout: (userId: number, layout: string, at: number) =>
      inTransaction(database, async (tx) => {
        const values = { layout, updatedAt: new Date(at) };
        await tx
          .insert(settings)
          .values({ userId, ...values })
          .onConflictDoUpdate({ target: settings.userId, set: values });
      }),

    /** All the member's practice: its time (ms) and the days it was on. */
    async lifetime(userId: number): Promise<{ practiceMs: number; days: number }> {
      const [row] = await read()
        .select({ practiceMs: sum(days.practiceMs).mapWith(Number), days: count() })
        .from(days)
        .where(eq(days.userId, userId));
      return { practiceMs: row?.practiceMs ?? 0, days: Number(row?.days ?? 0) };
    },

    /** The member's best speed of each kind practised. */
    bestPerKind: (userId: number) =>
      read()
        .select({ kind: results.kind, wpm: max(results.wpm) })
        .from(results)
        .where(eq(results.userId, userId))
        .groupBy(results.kind),

    /** How many results the member has stored (the totals line). */
    async resultCount(userId: number): Promise<number> {
      const [row] = await read().select({ n: count() }).from(results).where(eq(results.userId, userId));
      return Number(row?.n ?? 0);
    },
  };
}
export type PracticeStore = ReturnType<typeof createPracticeStore>;
