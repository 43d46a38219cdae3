import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";
import { REPORT_ACTIONS, REPORT_REASONS, RESTRICTION_KINDS, TARGET_KINDS, WORD_ACTIONS } from "./rules";

/** The moderation module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineModerationTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * One report of one member about one target (`target_key`: what was reported, e.g. `board_post:12`). The evidence
   * (JSON text) is the target as it was when reported. Open until an administrator acts on it; one action resolves
   * every open report of the target, each then naming the report the action was taken on (`resolved_with`). Names
   * are copied so the queue stays readable after renames and deleted accounts.
   */
  const reports = kit.table(
    "moderation_reports",
    {
      id: kit.serialId("id"),
      reporterId: kit.integer("reporter_id").references(() => users.id, { onDelete: "set null" }),
      reporterName: kit.text("reporter_name").notNull(),
      targetKey: kit.text("target_key").notNull(),
      targetKind: kit.text("target_kind", { enum: TARGET_KINDS }).notNull(),
      offenderId: kit.integer("offender_id").references(() => users.id, { onDelete: "set null" }),
      offenderName: kit.text("offender_name").notNull(),
      reason: kit.text("reason", { enum: REPORT_REASONS }).notNull(),
      note: kit.text("note"),
      /** JSON text: the chat line and the lines before it, the post as reported, the player and the replay. */
      evidence: kit.text("evidence").notNull(),
      status: kit.text("status", { enum: ["open", "resolved"] }).notNull(),
      resolution: kit.text("resolution", { enum: REPORT_ACTIONS }),
      resolvedWith: kit.integer("resolved_with"),
      resolvedById: kit.integer("resolved_by_id").references(() => users.id, { onDelete: "set null" }),
      resolvedByName: kit.text("resolved_by_name"),
      resolvedAt: kit.timestamp("resolved_at"),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      // One open report per reporter and target: a second one is refused (409), also when two arrive at once.
      kit.uniqueIndex("moderation_reports_open_idx").on(table.reporterId, table.targetKey).where(sql`status = 'open'`),
      kit.index("moderation_reports_target_idx").on(table.targetKey, table.status),
      kit.index("moderation_reports_status_idx").on(table.status, table.createdAt),
      kit.index("moderation_reports_offender_idx").on(table.offenderId),
    ],
  );

  /**
   * A mute (no chat, posts or comments), a suspension (no login) or an exclusion from the rankings, from `starts_at`
   * until `ends_at` (null: until lifted) unless `lifted_at`. `report_id`: the report it answers.
   */
  const restrictions = kit.table(
    "moderation_restrictions",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      kind: kit.text("kind", { enum: RESTRICTION_KINDS }).notNull(),
      reason: kit.text("reason").notNull(),
      startsAt: kit.timestamp("starts_at").notNull(),
      endsAt: kit.timestamp("ends_at"),
      liftedAt: kit.timestamp("lifted_at"),
      liftedByName: kit.text("lifted_by_name"),
      reportId: kit.integer("report_id").references(() => reports.id, { onDelete: "set null" }),
      createdByName: kit.text("created_by_name").notNull(),
    },
    (table) => [
      kit.index("moderation_restrictions_user_idx").on(table.userId, table.kind),
      kit.index("moderation_restrictions_kind_idx").on(table.kind, table.liftedAt, table.endsAt),
    ],
  );

  /** A warning: shown to the member at their next login until they have seen it. */
  const notices = kit.table(
    "moderation_notices",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      message: kit.text("message").notNull(),
      reportId: kit.integer("report_id").references(() => reports.id, { onDelete: "set null" }),
      createdAt: kit.timestamp("created_at").notNull(),
      seenAt: kit.timestamp("seen_at"),
    },
    (table) => [kit.index("moderation_notices_user_idx").on(table.userId, table.seenAt)],
  );

  /** A member's blocks: the blocked member's chat lines and posts are hidden for them (README "Blocks"). */
  const blocks = kit.table(
    "moderation_blocks",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      blockedId: kit
        .integer("blocked_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.userId, table.blockedId] }),
      kit.index("moderation_blocks_blocked_idx").on(table.blockedId),
    ],
  );

  /**
   * The administrators' changes to the profanity list (README "Profanity filter"): the list in force is the data
   * file's words, plus the words added here, less the words removed here. One row per word, its latest decision, so
   * a word removed once stays removed when a later release's data file still lists it.
   */
  const words = kit.table("moderation_words", {
    word: kit.text("word").primaryKey(),
    action: kit.text("action", { enum: WORD_ACTIONS }).notNull(),
    byId: kit.integer("by_id").references(() => users.id, { onDelete: "set null" }),
    byName: kit.text("by_name").notNull(),
    createdAt: kit.timestamp("created_at").notNull(),
  });

  return { reports, restrictions, notices, blocks, words };
}
