import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";

/**
 * The PostgreSQL twin of `schema.ts` (same tables, columns, indexes and property names; the store is typed by
 * the SQLite schema). Timestamps are `timestamptz` read as Date, reals `double precision`.
 * Only duels between two members that were played (and not forfeited early) are stored (README "Storage").
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

/** One row per member who has played a stored duel: the rating and the figures the rankings read. */
export const duelPlayers = pgTable(
  "duel_players",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: doublePrecision("rating").notNull(),
    ratingDeviation: doublePrecision("rating_deviation").notNull(),
    volatility: doublePrecision("volatility").notNull(),
    wins: integer("wins").notNull().default(0),
    losses: integer("losses").notNull().default(0),
    draws: integer("draws").notNull().default(0),
    /** Positive: consecutive wins; negative: consecutive losses; a draw resets it to 0. */
    currentStreak: integer("current_streak").notNull().default(0),
    maxWinStreak: integer("max_win_streak").notNull().default(0),
    lastPlayedAt: at("last_played_at"),
    updatedAt: at("updated_at").notNull(),
  },
  (table) => [index("duel_players_max_streak_idx").on(table.maxWinStreak)],
);

/** One row per stored duel, keyed by its session id: a retried write never counts a duel twice. */
export const duelGames = pgTable(
  "duel_games",
  {
    id: serial("id").primaryKey(),
    sessionId: text("session_id").notNull().unique(),
    redUserId: integer("red_user_id").references(() => users.id, { onDelete: "set null" }),
    blueUserId: integer("blue_user_id").references(() => users.id, { onDelete: "set null" }),
    winnerSide: text("winner_side", { enum: ["red", "blue", "draw"] }).notNull(),
    reason: text("reason").notNull(),
    redLives: integer("red_lives").notNull(),
    blueLives: integer("blue_lives").notNull(),
    redWordsTyped: integer("red_words_typed").notNull(),
    blueWordsTyped: integer("blue_words_typed").notNull(),
    /** Seconds. */
    duration: doublePrecision("duration").notNull(),
    redRatingBefore: doublePrecision("red_rating_before").notNull(),
    redRatingAfter: doublePrecision("red_rating_after").notNull(),
    blueRatingBefore: doublePrecision("blue_rating_before").notNull(),
    blueRatingAfter: doublePrecision("blue_rating_after").notNull(),
    startedAt: at("started_at").notNull(),
    endedAt: at("ended_at").notNull(),
    /**
     * False for a duel stored past the pair's daily limit (3 rated duels of the same two members a Seoul day): it
     * changed no rating, figure or activity. Duels stored before the limit existed were all rated.
     */
    rated: boolean("rated").notNull().default(true),
  },
  (table) => [
    index("duel_games_red_idx").on(table.redUserId, table.endedAt),
    index("duel_games_blue_idx").on(table.blueUserId, table.endedAt),
    // The pair's rated duels of a day: counted in the transaction that stores a duel (both orders of the pair).
    index("duel_games_pair_idx").on(table.redUserId, table.blueUserId, table.endedAt),
  ],
);

/** Per member and Asia/Seoul day (`YYYY-MM-DD`): the recent-activity ranking sums a range of days. */
export const duelDaily = pgTable(
  "duel_daily",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    games: integer("games").notNull().default(0),
    wins: integer("wins").notNull().default(0),
    losses: integer("losses").notNull().default(0),
    draws: integer("draws").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] }), index("duel_daily_day_idx").on(table.day)],
);
