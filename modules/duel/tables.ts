import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/**
 * The duel module's tables, for either engine. Only duels between two members that were played (and not forfeited
 * early) are stored (README "Storage").
 */
export function defineDuelTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /** One row per member who has played a stored duel: the rating and the figures the rankings read. */
  const duelPlayers = kit.table(
    "duel_players",
    {
      userId: kit
        .integer("user_id")
        .primaryKey()
        .references(() => users.id, { onDelete: "cascade" }),
      rating: kit.double("rating").notNull(),
      ratingDeviation: kit.double("rating_deviation").notNull(),
      volatility: kit.double("volatility").notNull(),
      wins: kit.integer("wins").notNull().default(0),
      losses: kit.integer("losses").notNull().default(0),
      draws: kit.integer("draws").notNull().default(0),
      /** Positive: consecutive wins; negative: consecutive losses; a draw resets it to 0. */
      currentStreak: kit.integer("current_streak").notNull().default(0),
      maxWinStreak: kit.integer("max_win_streak").notNull().default(0),
      lastPlayedAt: kit.timestamp("last_played_at"),
      updatedAt: kit.timestamp("updated_at").notNull(),
    },
    (table) => [kit.index("duel_players_max_streak_idx").on(table.maxWinStreak)],
  );

  /** One row per stored duel, keyed by its session id: a retried write never counts a duel twice. */
  const duelGames = kit.table(
    "duel_games",
    {
      id: kit.serialId("id"),
      sessionId: kit.text("session_id").notNull().unique(),
      redUserId: kit.integer("red_user_id").references(() => users.id, { onDelete: "set null" }),
      blueUserId: kit.integer("blue_user_id").references(() => users.id, { onDelete: "set null" }),
      winnerSide: kit.text("winner_side", { enum: ["red", "blue", "draw"] }).notNull(),
      reason: kit.text("reason").notNull(),
      redLives: kit.integer("red_lives").notNull(),
      blueLives: kit.integer("blue_lives").notNull(),
      redWordsTyped: kit.integer("red_words_typed").notNull(),
      blueWordsTyped: kit.integer("blue_words_typed").notNull(),
      /** Seconds. */
      duration: kit.double("duration").notNull(),
      redRatingBefore: kit.double("red_rating_before").notNull(),
      redRatingAfter: kit.double("red_rating_after").notNull(),
      blueRatingBefore: kit.double("blue_rating_before").notNull(),
      blueRatingAfter: kit.double("blue_rating_after").notNull(),
      startedAt: kit.timestamp("started_at").notNull(),
      endedAt: kit.timestamp("ended_at").notNull(),
      /**
       * False for a duel stored past the pair's daily limit (3 rated duels of the same two members a Seoul day): it
       * changed no rating, figure or activity. Duels stored before the limit existed were all rated.
       */
      rated: kit.boolean("rated").notNull().default(true),
    },
    (table) => [
      kit.index("duel_games_red_idx").on(table.redUserId, table.endedAt),
      kit.index("duel_games_blue_idx").on(table.blueUserId, table.endedAt),
      // The pair's rated duels of a day: counted in the transaction that stores a duel (both orders of the pair).
      kit.index("duel_games_pair_idx").on(table.redUserId, table.blueUserId, table.endedAt),
    ],
  );

  /** Per member and Asia/Seoul day (`YYYY-MM-DD`): the recent-activity ranking sums a range of days. */
  const duelDaily = kit.table(
    "duel_daily",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      day: kit.text("day").notNull(),
      games: kit.integer("games").notNull().default(0),
      wins: kit.integer("wins").notNull().default(0),
      losses: kit.integer("losses").notNull().default(0),
      draws: kit.integer("draws").notNull().default(0),
    },
    (table) => [kit.primaryKey({ columns: [table.userId, table.day] }), kit.index("duel_daily_day_idx").on(table.day)],
  );

  /**
   * A member's duel settings, kept apart from `duel_players` (which holds rated figures only, and only after a first
   * stored duel). No row: the defaults (challenges accepted).
   */
  const duelPreferences = kit.table("duel_preferences", {
    userId: kit
      .integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** False: other members' direct challenges are refused ("대결 신청 받기" off on the duel menu). */
    acceptsChallenges: kit.boolean("accepts_challenges").notNull().default(true),
    updatedAt: kit.timestamp("updated_at").notNull(),
  });

  return { duelPlayers, duelGames, duelDaily, duelPreferences };
}
