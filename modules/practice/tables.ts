import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The practice module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function definePracticeTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * Every practice a member finished, once: keyed by the member and the id the client made for it, so a result sent
   * twice (a retry, an offline result sent again) is stored once. `experience` is what it paid (0 past the day's
   * 30 minutes); `paid_at` says the payment went through (a retry pays only when it did not).
   */
  const results = kit.table(
    "practice_results",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      clientId: kit.text("client_id").notNull(),
      kind: kit.text("kind").notNull(),
      textId: kit.text("text_id").notNull(),
      layout: kit.text("layout").notNull(),
      wpm: kit.integer("wpm").notNull(),
      accuracy: kit.double("accuracy").notNull(),
      keystrokes: kit.integer("keystrokes").notNull(),
      errorCount: kit.integer("error_count").notNull(),
      durationMs: kit.integer("duration_ms").notNull(),
      /** The Seoul day it was typed (its finish, as the client saw it, within the day before). */
      day: kit.text("day").notNull(),
      /** A guest's result moved to the account at login: stored, never paid. */
      merged: kit.boolean("merged").notNull(),
      experience: kit.integer("experience").notNull(),
      paidAt: kit.timestamp("paid_at"),
      finishedAt: kit.timestamp("finished_at").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.uniqueIndex("practice_results_client_idx").on(table.userId, table.clientId),
      kit.index("practice_results_day_idx").on(table.userId, table.day),
    ],
  );

  /**
   * A member's keystrokes per Seoul day, layout and unit (a jamo key, "space", or a transition: dokkaebi,
   * double_final, shift): the statistics add up the recent days, the progress reads them day by day.
   */
  const jamoDays = kit.table(
    "practice_jamo_days",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      layout: kit.text("layout").notNull(),
      day: kit.text("day").notNull(),
      unit: kit.text("unit").notNull(),
      hits: kit.integer("hits").notNull(),
      errors: kit.integer("errors").notNull(),
      timeMs: kit.bigint("time_ms").notNull(),
      timed: kit.integer("timed").notNull(),
    },
    (table) => [kit.primaryKey({ columns: [table.userId, table.layout, table.day, table.unit] })],
  );

  /**
   * A member's practice per Seoul day: the time practised, how much of it paid (at most 30 minutes), the experience
   * paid. The row is the lock two results of one member arriving at once take in turn.
   */
  const days = kit.table(
    "practice_days",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      day: kit.text("day").notNull(),
      practiceMs: kit.bigint("practice_ms").notNull(),
      paidMs: kit.bigint("paid_ms").notNull(),
      experience: kit.integer("experience").notNull(),
      results: kit.integer("results").notNull(),
      updatedAt: kit.timestamp("updated_at").notNull().default(kit.now),
    },
    (table) => [
      kit.primaryKey({ columns: [table.userId, table.day] }),
      kit.index("practice_days_recent_idx").on(table.userId, sql`${table.day} desc`),
    ],
  );

  /** A member's target (one per member): the speed and accuracy the progress chart draws its lines at. */
  const goals = kit.table("practice_goals", {
    userId: kit
      .integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    wpm: kit.integer("wpm").notNull(),
    accuracy: kit.double("accuracy").notNull(),
    updatedAt: kit.timestamp("updated_at").notNull(),
  });

  /** A member's practice settings (one row per member): the layout they practise on, remembered between visits. */
  const settings = kit.table("practice_settings", {
    userId: kit
      .integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    layout: kit.text("layout").notNull(),
    updatedAt: kit.timestamp("updated_at").notNull(),
  });

  return { results, jamoDays, days, goals, settings };
}
