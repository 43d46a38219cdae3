import { and, asc, desc, eq, gt, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, type StoreDb, storeDb, tablesFor } from "../../db/store";
import { DAY_MS, seoulDate, seoulDayStart } from "../kernel/seoul-time";
import type { DuelResult } from "./duel-mode";
import { GLICKO2_NEW_PLAYER, type Glicko2Rating, rateDuel, type Score } from "./glicko2";
import type { DuelPlayerRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/** A played duel between two members, as the presenter hands it to storage. */
export interface DuelRecord {
  sessionId: string;
  redUserId: number;
  blueUserId: number;
  winnerSide: "red" | "blue" | "draw";
  reason: string;
  redLives: number;
  blueLives: number;
  redWordsTyped: number;
  blueWordsTyped: number;
  /** Seconds. */
  duration: number;
  startedAt: number;
  endedAt: number;
}

import { RATED_DUELS_PER_PAIR_A_DAY } from "./rules";

export { RATED_DUELS_PER_PAIR_A_DAY };

/** What storing a duel did: `recorded` false for a retry (nothing changed); `rated` false past the pair's limit. */
export interface RecordOutcome {
  recorded: boolean;
  rated: boolean;
  /** Both members' figures after it (red first); an unrated duel changed none of them (`ratingChange` 0). */
  players: PlayerFigures[];
}

/** A member's duel figures after a stored duel (or as stored). */
export interface PlayerFigures {
  userId: number;
  rating: number;
  ratingDeviation: number;
  /** The change this duel made (0 when read, not recorded). */
  ratingChange: number;
  wins: number;
  losses: number;
  draws: number;
  totalGames: number;
  currentStreak: number;
  maxWinStreak: number;
}

/** A stored duel's result, as `duel:game_over` carries it (a stored duel was played), and whether it was rated. */
export type StoredResult = DuelResult & { rated: boolean };

export type RankingKind = "win_rate" | "total_games" | "win_streak" | "recent_activity";

export interface RankingQuery {
  limit: number;
  /** win_rate only: members with fewer stored duels are left out. */
  minGames: number;
  /** The first Seoul day (`YYYY-MM-DD`) of the recent figures. */
  fromDay: string;
}

/** The Duel ranking entry of spec part 2 §3 (recent_* over the query's days). */
export interface RankingEntry {
  user_id: number;
  username: string;
  rating: number;
  win_rate: number;
  wins: number;
  losses: number;
  draws: number;
  total_games: number;
  current_streak: number;
  max_win_streak: number;
  recent_games: number;
  recent_wins: number;
  recent_win_rate: number;
}

type Tables = typeof sqliteSchema & { users: typeof sqliteUsers };

/**
 * The duel module's one store, written once for SQLite and PostgreSQL (db/README.md). `recordDuel` is one
 * transaction: the duel row (unique session id: a retry records nothing), both members' ratings (Glicko-2, each
 * against the other's rating from before) and figures, and their Seoul-day activity. What differs by engine is
 * only the table objects; counts and sums are cast to integer (PostgreSQL answers bigint text).
 */
export function createDuelStore(database: SqlDatabase) {
  const tables = tablesFor(database, { ...sqliteSchema, users: sqliteUsers }, { ...pgSchema, users: pgUsers });
  const reads = duelReads(storeDb(database), tables);
  return {
    ...reads,
    recordDuel: (record: DuelRecord) => inTransaction(database, (db) => recordDuel(db, tables, record)),
    /** A member's "대결 신청 받기" setting (one upsert). */
    async setAcceptsChallenges(userId: number, accepts: boolean, at: number) {
      const { duelPreferences } = tables;
      const updatedAt = new Date(at);
      await storeDb(database)
        .insert(duelPreferences)
        .values({ userId, acceptsChallenges: accepts, updatedAt })
        .onConflictDoUpdate({ target: duelPreferences.userId, set: { acceptsChallenges: accepts, updatedAt } });
    },
  };
}
export type DuelStore = ReturnType<typeof createDuelStore>;

const int = (expression: SQL) => sql<number>`cast(${expression} as integer)`.mapWith(Number);

const figuresOf = (row: DuelPlayerRow, ratingChange = 0): PlayerFigures => ({
  userId: row.userId,
  rating: row.rating,
  ratingDeviation: row.ratingDeviation,
  ratingChange,
  wins: row.wins,
  losses: row.losses,
  draws: row.draws,
  totalGames: row.wins + row.losses + row.draws,
  currentStreak: row.currentStreak,
  maxWinStreak: row.maxWinStreak,
});

const ratingOfRow = (row: DuelPlayerRow): Glicko2Rating => ({
  rating: row.rating,
  rd: row.ratingDeviation,
  volatility: row.volatility,
});

/** The streak after a result: wins count up from a win streak, losses down from a loss streak, a draw resets. */
export function nextStreak(streak: number, score: Score): number {
  if (score === 1) return streak > 0 ? streak + 1 : 1;
  if (score === 0) return streak < 0 ? streak - 1 : -1;
  return 0;
}

/**
 * Stores a duel in one transaction. The duel row first (rated false until decided; a retry of the session stops
 * here), then both members' rows are touched in user id order — on PostgreSQL the upsert locks them, so another
 * duel of either member (another process) waits until this one commits — and only then are the pair's rated duels
 * of the Seoul day counted: under READ COMMITTED that count is a new snapshot taken after the lock, so two duels of
 * the same pair stored at once never both see room for a 3rd rating (SQLite: `BEGIN IMMEDIATE`, one writer).
 */
async function recordDuel(db: StoreDb, t: Tables, record: DuelRecord): Promise<RecordOutcome> {
  const { duelGames, duelPlayers } = t;
  const endedAt = new Date(record.endedAt);
  const inserted = await db
    .insert(duelGames)
    .values({
      sessionId: record.sessionId,
      redUserId: record.redUserId,
      blueUserId: record.blueUserId,
      winnerSide: record.winnerSide,
      reason: record.reason,
      redLives: record.redLives,
      blueLives: record.blueLives,
      redWordsTyped: record.redWordsTyped,
      blueWordsTyped: record.blueWordsTyped,
      duration: record.duration,
      redRatingBefore: 0,
      redRatingAfter: 0,
      blueRatingBefore: 0,
      blueRatingAfter: 0,
      startedAt: new Date(record.startedAt),
      endedAt,
      rated: false,
    })
    .onConflictDoNothing({ target: duelGames.sessionId })
    .returning({ id: duelGames.id });
  if (inserted.length === 0) return { recorded: false, rated: false, players: [] };

  // Touch both rows first, in user id order: on PostgreSQL the upsert locks them, so a concurrent duel of the
  // same member (another process) waits here instead of rating from a row this transaction is about to change.
  for (const userId of [record.redUserId, record.blueUserId].sort((a, b) => a - b)) {
    await db
      .insert(duelPlayers)
      .values({
        userId,
        rating: GLICKO2_NEW_PLAYER.rating,
        ratingDeviation: GLICKO2_NEW_PLAYER.rd,
        volatility: GLICKO2_NEW_PLAYER.volatility,
        updatedAt: endedAt,
      })
      .onConflictDoUpdate({ target: duelPlayers.userId, set: { updatedAt: endedAt } });
  }
  const rows = await db
    .select()
    .from(duelPlayers)
    .where(inArray(duelPlayers.userId, [record.redUserId, record.blueUserId]));
  const red = rows.find((r) => r.userId === record.redUserId)!;
  const blue = rows.find((r) => r.userId === record.blueUserId)!;
  if ((await ratedDuelsOfPairOnDay(db, t, record)) >= RATED_DUELS_PER_PAIR_A_DAY) {
    // Stored for the history, unrated: no rating, figure, streak or activity moves.
    await db
      .update(duelGames)
      .set({
        redRatingBefore: red.rating,
        redRatingAfter: red.rating,
        blueRatingBefore: blue.rating,
        blueRatingAfter: blue.rating,
      })
      .where(eq(duelGames.id, inserted[0].id));
    return { recorded: true, rated: false, players: [figuresOf(red), figuresOf(blue)] };
  }
  const redScore: Score = record.winnerSide === "draw" ? 0.5 : record.winnerSide === "red" ? 1 : 0;
  const [redRating, blueRating] = rateDuel(ratingOfRow(red), ratingOfRow(blue), redScore);
  const day = seoulDate(record.endedAt);
  const redAfter = await applyResult(db, t, red, redRating, redScore, endedAt, day);
  const blueAfter = await applyResult(db, t, blue, blueRating, (1 - redScore) as Score, endedAt, day);
  await db
    .update(duelGames)
    .set({
      redRatingBefore: red.rating,
      redRatingAfter: redRating.rating,
      blueRatingBefore: blue.rating,
      blueRatingAfter: blueRating.rating,
      rated: true,
    })
    .where(eq(duelGames.id, inserted[0].id));
  return {
    recorded: true,
    rated: true,
    players: [
      figuresOf(redAfter, redRating.rating - red.rating),
      figuresOf(blueAfter, blueRating.rating - blue.rating),
    ],
  };
}

/** The rated duels of the record's two members (either side) on the Seoul day the record ended, this one aside. */
async function ratedDuelsOfPairOnDay(db: StoreDb, t: Tables, record: DuelRecord): Promise<number> {
  const { duelGames } = t;
  const dayStart = seoulDayStart(record.endedAt);
  const pair = (red: number, blue: number) => and(eq(duelGames.redUserId, red), eq(duelGames.blueUserId, blue));
  const [row] = await db
    .select({ count: int(sql`count(*)`) })
    .from(duelGames)
    .where(
      and(
        or(pair(record.redUserId, record.blueUserId), pair(record.blueUserId, record.redUserId)),
        gte(duelGames.endedAt, new Date(dayStart)),
        lt(duelGames.endedAt, new Date(dayStart + DAY_MS)),
        eq(duelGames.rated, true),
      ),
    );
  return row.count;
}

async function applyResult(
  db: StoreDb,
  t: Tables,
  row: DuelPlayerRow,
  rating: Glicko2Rating,
  score: Score,
  at: Date,
  day: string,
): Promise<DuelPlayerRow> {
  const { duelPlayers, duelDaily } = t;
  const win = score === 1 ? 1 : 0;
  const loss = score === 0 ? 1 : 0;
  const draw = score === 0.5 ? 1 : 0;
  const currentStreak = nextStreak(row.currentStreak, score);
  const [updated] = await db
    .update(duelPlayers)
    .set({
      rating: rating.rating,
      ratingDeviation: rating.rd,
      volatility: rating.volatility,
      wins: row.wins + win,
      losses: row.losses + loss,
      draws: row.draws + draw,
      currentStreak,
      maxWinStreak: Math.max(row.maxWinStreak, currentStreak),
      lastPlayedAt: at,
      updatedAt: at,
    })
    .where(eq(duelPlayers.userId, row.userId))
    .returning();
  await db
    .insert(duelDaily)
    .values({ userId: row.userId, day, games: 1, wins: win, losses: loss, draws: draw })
    .onConflictDoUpdate({
      target: [duelDaily.userId, duelDaily.day],
      set: {
        games: sql`${duelDaily.games} + 1`,
        wins: sql`${duelDaily.wins} + ${win}`,
        losses: sql`${duelDaily.losses} + ${loss}`,
        draws: sql`${duelDaily.draws} + ${draw}`,
      },
    });
  return updated;
}

function duelReads(db: StoreDb, t: Tables) {
  const { duelPlayers, duelDaily, duelGames, duelPreferences, users } = t;
  const total = sql`(${duelPlayers.wins} + ${duelPlayers.losses} + ${duelPlayers.draws})`;
  // `* 1.0` before dividing: integer division on both engines otherwise.
  const winRate = sql<number>`(${duelPlayers.wins} * 1.0 / ${total})`.mapWith(Number);

  async function ranking(kind: RankingKind, query: RankingQuery): Promise<RankingEntry[]> {
    const recent = db
      .select({
        userId: duelDaily.userId,
        games: int(sql`sum(${duelDaily.games})`).as("recent_games"),
        wins: int(sql`sum(${duelDaily.wins})`).as("recent_wins"),
      })
      .from(duelDaily)
      .where(gte(duelDaily.day, query.fromDay))
      .groupBy(duelDaily.userId)
      .as("recent");
    const recentGames = int(sql`coalesce(${recent.games}, 0)`);
    const recentWins = int(sql`coalesce(${recent.wins}, 0)`);
    const where = {
      win_rate: and(gt(total, 0), gte(total, query.minGames)),
      total_games: gt(total, 0),
      win_streak: gt(duelPlayers.maxWinStreak, 0),
      recent_activity: gt(sql`coalesce(${recent.games}, 0)`, 0),
    }[kind];
    // Ties end on the user id, so both engines answer in the same order.
    const order = {
      win_rate: [desc(winRate), desc(total), asc(duelPlayers.userId)],
      total_games: [desc(total), desc(winRate), asc(duelPlayers.userId)],
      win_streak: [desc(duelPlayers.maxWinStreak), desc(duelPlayers.currentStreak), asc(duelPlayers.userId)],
      recent_activity: [desc(recentGames), desc(recentWins), asc(duelPlayers.userId)],
    }[kind];
    const rows = await db
      .select({ player: duelPlayers, username: users.username, recentGames, recentWins })
      .from(duelPlayers)
      .innerJoin(users, eq(users.id, duelPlayers.userId))
      .leftJoin(recent, eq(recent.userId, duelPlayers.userId))
      .where(where)
      .orderBy(...order)
      .limit(query.limit);
    return rows.map(({ player, username, recentGames: games, recentWins: wins }) => {
      const figures = figuresOf(player);
      return {
        user_id: player.userId,
        username,
        rating: Math.round(player.rating),
        win_rate: winRateOf(figures.wins, figures.totalGames),
        wins: figures.wins,
        losses: figures.losses,
        draws: figures.draws,
        total_games: figures.totalGames,
        current_streak: figures.currentStreak,
        max_win_streak: figures.maxWinStreak,
        recent_games: games,
        recent_wins: wins,
        recent_win_rate: winRateOf(wins, games),
      };
    });
  }

  return {
    /** The member's stored figures, or null before their first stored duel. */
    async player(userId: number): Promise<PlayerFigures | null> {
      const [row] = await db.select().from(duelPlayers).where(eq(duelPlayers.userId, userId));
      return row ? figuresOf(row) : null;
    },
    /** The rating matchmaking uses: a new player's 1500 before any stored duel. */
    async rating(userId: number): Promise<number> {
      const [row] = await db
        .select({ rating: duelPlayers.rating })
        .from(duelPlayers)
        .where(eq(duelPlayers.userId, userId));
      return row?.rating ?? GLICKO2_NEW_PLAYER.rating;
    },
    /** Whether the member takes direct challenges (yes until they turn it off). */
    async acceptsChallenges(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ accepts: duelPreferences.acceptsChallenges })
        .from(duelPreferences)
        .where(eq(duelPreferences.userId, userId));
      return row?.accepts ?? true;
    },
    /** A stored duel's result by its session id (null when none was stored): a takeover tells the players. */
    async duelBySession(sessionId: string): Promise<StoredResult | null> {
      const [row] = await db.select().from(duelGames).where(eq(duelGames.sessionId, sessionId));
      if (!row) return null;
      return {
        winner_side: row.winnerSide,
        reason: row.reason as StoredResult["reason"],
        red_remaining_lives: row.redLives,
        blue_remaining_lives: row.blueLives,
        red_words_typed: row.redWordsTyped,
        blue_words_typed: row.blueWordsTyped,
        game_duration: row.duration,
        played: true,
        rated: row.rated,
      };
    },
    ranking,
  };
}

/** Wins over games as a fraction to 4 places (0 before any game): the one win rate of the rankings and the profile. */
export const winRateOf = (wins: number, games: number) =>
  games > 0 ? Math.round((wins / games) * 10_000) / 10_000 : 0;
