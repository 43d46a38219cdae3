import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import type { BestRow, DayRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

export type { BestRow, DayRow };

/** A counted attempt as the daily module keeps it (the game's result itself is games'). */
export interface AttemptRecord {
  day: string;
  playerKey: string;
  /** The game's round on the player's day (games' `GameRef.round`): the attempt's identity. */
  round: number;
  userId: number | null;
  nickname: string;
  wpm: number;
  accuracy: number;
  completionTime: number;
  verified: boolean;
  replayKey: string | null;
  createdAt: number;
}

/** The store of this database, made once (`onePerDatabase`). */
export const dailyStoreOf = onePerDatabase(createDailyStore);

/**
 * The daily module's tables on either engine, written once (db/README.md); each write method is one transaction.
 * Races between processes are decided by the primary keys: a day's row is inserted with `ON CONFLICT DO NOTHING`
 * and read back (whoever inserted first chose the sentence), an attempt once per (day, player, round), a best row
 * replaced only by a better attempt (one conditional upsert).
 */
export function createDailyStore(database: SqlDatabase) {
  const { days, attempts, best } = tablesFor(database, sqliteSchema, pgSchema);
  const pg = database.dialect === "pg";
  const read = () => storeDb(database);
  const byCodePoint = pg ? sql`${best.playerKey} COLLATE "C"` : sql`${best.playerKey}`;
  const boardOrder = [desc(best.wpm), desc(best.accuracy), asc(best.createdAt), asc(byCodePoint)];

  async function placeOf(db: StoreDb, day: string, playerKey: string, round: number): Promise<number> {
    const mine = and(eq(attempts.day, day), eq(attempts.playerKey, playerKey));
    const [stored] = await db
      .select({ n: count() })
      .from(attempts)
      .where(and(mine, eq(attempts.round, round)));
    if (Number(stored?.n ?? 0) === 0) return 0;
    const [place] = await db
      .select({ n: count() })
      .from(attempts)
      .where(and(mine, lte(attempts.round, round)));
    return Number(place?.n ?? 0);
  }

  return {
    async day(day: string): Promise<DayRow | undefined> {
      const [row] = await read().select().from(days).where(eq(days.day, day));
      return row;
    },

    /** The day's row: this one when no process chose the day's sentence before, else the one chosen first. */
    chooseDay: (row: { day: string; sentenceId: number; sentenceText: string; chosenAt: number }) =>
      inTransaction(database, async (tx): Promise<DayRow> => {
        await tx
          .insert(days)
          .values({ ...row, chosenAt: new Date(row.chosenAt) })
          .onConflictDoNothing({ target: days.day });
        const [stored] = await tx.select().from(days).where(eq(days.day, row.day));
        return stored!;
      }),

    /** The sentence ids of the days `fromDay` ≤ day < `beforeDay`. */
    async sentencesBetween(fromDay: string, beforeDay: string): Promise<number[]> {
      const rows = await read()
        .select({ id: days.sentenceId })
        .from(days)
        .where(and(gte(days.day, fromDay), lt(days.day, beforeDay)));
      return rows.map((row) => row.id);
    },

    /**
     * Stores a counted attempt once (a retry changes nothing) and, when verified, makes it the player's best of the
     * day if it beats the stored one (speed, then accuracy; a tie keeps the earlier). Answers the attempt's place
     * among the player's counted attempts of the day (1 = the first), the same on every retry.
     */
    recordAttempt: (a: AttemptRecord) =>
      inTransaction(database, async (tx): Promise<number> => {
        const createdAt = new Date(a.createdAt);
        await tx
          .insert(attempts)
          .values({
            day: a.day,
            playerKey: a.playerKey,
            round: a.round,
            userId: a.userId,
            wpm: a.wpm,
            accuracy: a.accuracy,
            verified: a.verified,
            createdAt,
          })
          .onConflictDoNothing();
        if (a.verified) {
          const better = sql`excluded.wpm > ${best.wpm} or (excluded.wpm = ${best.wpm} and excluded.accuracy > ${best.accuracy})`;
          await tx
            .insert(best)
            .values({
              day: a.day,
              playerKey: a.playerKey,
              userId: a.userId,
              nickname: a.nickname,
              wpm: a.wpm,
              accuracy: a.accuracy,
              completionTime: a.completionTime,
              round: a.round,
              replayKey: a.replayKey,
              createdAt,
            })
            .onConflictDoUpdate({
              target: [best.day, best.playerKey],
              set: {
                userId: sql`excluded.user_id`,
                nickname: sql`excluded.nickname`,
                wpm: sql`excluded.wpm`,
                accuracy: sql`excluded.accuracy`,
                completionTime: sql`excluded.completion_time`,
                round: sql`excluded.round`,
                replayKey: sql`excluded.replay_key`,
                createdAt: sql`excluded.created_at`,
              },
              setWhere: better,
            });
        }
        return placeOf(tx, a.day, a.playerKey, a.round);
      }),

    /** The attempt's place among the player's counted attempts of the day; 0 when it was not stored. */
    attemptPlace: (day: string, playerKey: string, round: number) => placeOf(read(), day, playerKey, round),

    /** The day's board: the members' best attempts in board order. */
    board: (day: string, limit: number): Promise<BestRow[]> =>
      read()
        .select()
        .from(best)
        .where(and(eq(best.day, day), isNotNull(best.userId)))
        .orderBy(...boardOrder)
        .limit(limit),

    /** A player's best verified attempt of the day (guests too), with its place on the members' board (null for a guest). */
    async bestOf(day: string, playerKey: string): Promise<(BestRow & { rank: number | null }) | null> {
      const [row] = await read()
        .select()
        .from(best)
        .where(and(eq(best.day, day), eq(best.playerKey, playerKey)));
      if (!row) return null;
      if (row.userId === null) return { ...row, rank: null };
      const [ahead] = await read()
        .select({ n: count() })
        .from(best)
        .where(
          and(
            eq(best.day, day),
            isNotNull(best.userId),
            or(
              gt(best.wpm, row.wpm),
              and(
                eq(best.wpm, row.wpm),
                or(
                  gt(best.accuracy, row.accuracy),
                  and(eq(best.accuracy, row.accuracy), lt(best.createdAt, row.createdAt)),
                ),
              ),
            ),
          ),
        );
      return { ...row, rank: Number(ahead?.n ?? 0) + 1 };
    },

    /** Days before `beforeDay` not closed yet (medals not given, or replays not kept), oldest first. */
    daysToClose: (beforeDay: string): Promise<DayRow[]> =>
      read()
        .select()
        .from(days)
        .where(and(lt(days.day, beforeDay), or(isNull(days.medalsAt), isNull(days.replaysKeptAt))))
        .orderBy(asc(days.day)),

    /** Marks a step of the day's close done: its medals given, or its board's replays kept (the first mark stays). */
    markClosed: (day: string, step: "medalsAt" | "replaysKeptAt", at: number) =>
      inTransaction(database, async (tx) => {
        await tx
          .update(days)
          .set(step === "medalsAt" ? { medalsAt: new Date(at) } : { replaysKeptAt: new Date(at) })
          .where(and(eq(days.day, day), isNull(days[step])));
      }),
  };
}
export type DailyStore = ReturnType<typeof createDailyStore>;
