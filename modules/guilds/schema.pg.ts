import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";
import { ACTIVITY_KINDS, APPLICATION_STATUSES, GUILD_ROLES, INVITATION_STATUSES } from "./rules";

/**
 * The PostgreSQL twin of `schema.ts` (same tables, columns, indexes and property names; the store is typed by the
 * SQLite schema). Timestamps are `timestamptz` read as Date, like SQLite's `timestamp_ms` columns.
 * Nothing a person wrote is hard-deleted: a disbanded guild keeps its row (`deleted_at`), a member who left keeps
 * theirs (`left_at`), posts and comments are soft-deleted, so the history stays auditable.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const guilds = pgTable(
  "guilds",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** Lower-cased name: names are unique case-insensitively among live guilds. */
    nameKey: text("name_key").notNull(),
    description: text("description").notNull().default(""),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    maxMembers: integer("max_members").notNull().default(30),
    countdownSeconds: integer("countdown_seconds").notNull().default(5),
    endCountdownSeconds: integer("end_countdown_seconds").notNull().default(60),
    /** The guild game's problems: a JSON array of strings. */
    problems: text("problems").notNull().default("[]"),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
    deletedAt: at("deleted_at"),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [
    // A disbanded guild frees its name.
    uniqueIndex("guilds_name_key_live_unique").on(table.nameKey).where(sql`deleted_at IS NULL`),
    index("guilds_live_created_idx").on(table.deletedAt, table.createdAt),
  ],
);

/** Memberships; a row whose `left_at` is set is history. One live membership per user (one guild per user). */
export const guildMembers = pgTable(
  "guilds_members",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role", { enum: GUILD_ROLES }).notNull(),
    joinedAt: at("joined_at").notNull(),
    leftAt: at("left_at"),
  },
  (table) => [
    uniqueIndex("guilds_members_user_live_unique").on(table.userId).where(sql`left_at IS NULL`),
    index("guilds_members_guild_idx").on(table.guildId, table.leftAt),
  ],
);

/**
 * Invitations by e-mail (lower-cased): an account registered later with that e-mail sees them. One pending
 * invitation per guild and e-mail.
 */
export const guildInvitations = pgTable(
  "guilds_invitations",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    email: text("email").notNull(),
    /** The name the inviting admin typed next to the e-mail (shown to admins only; identity is the e-mail). */
    username: text("username").notNull().default(""),
    invitedBy: integer("invited_by")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: INVITATION_STATUSES }).notNull(),
    createdAt: at("created_at").notNull(),
    respondedAt: at("responded_at"),
  },
  (table) => [
    uniqueIndex("guilds_invitations_pending_unique").on(table.guildId, table.email).where(sql`status = 'pending'`),
    index("guilds_invitations_email_idx").on(table.email, table.status),
  ],
);

/** Recruitment posts (soft-deleted); `view_count` counts a viewer at most once per window (see the views table). */
export const guildRecruitmentPosts = pgTable(
  "guilds_recruitment_posts",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    viewCount: integer("view_count").notNull().default(0),
    createdAt: at("created_at").notNull(),
    deletedAt: at("deleted_at"),
  },
  (table) => [index("guilds_recruitment_posts_live_idx").on(table.deletedAt, table.createdAt)],
);

/** One row per (recruitment post, viewer): when that viewer's visit was last counted. */
export const guildRecruitmentViews = pgTable(
  "guilds_recruitment_views",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => guildRecruitmentPosts.id),
    viewerKey: text("viewer_key").notNull(),
    countedAt: at("counted_at").notNull(),
  },
  (table) => [uniqueIndex("guilds_recruitment_views_post_viewer_unique").on(table.postId, table.viewerKey)],
);

/** Applications to join a guild (through a recruitment post); one pending application per guild and user. */
export const guildApplications = pgTable(
  "guilds_applications",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    postId: integer("post_id").references(() => guildRecruitmentPosts.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    message: text("message").notNull().default(""),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull(),
    createdAt: at("created_at").notNull(),
    decidedAt: at("decided_at"),
    decidedBy: integer("decided_by").references(() => users.id),
  },
  (table) => [
    uniqueIndex("guilds_applications_pending_unique").on(table.guildId, table.userId).where(sql`status = 'pending'`),
    index("guilds_applications_guild_idx").on(table.guildId, table.createdAt),
    index("guilds_applications_post_idx").on(table.postId),
  ],
);

/** The guild board (members only); `comment_count` is kept with the comments' writes so lists need no count. */
export const guildBoardPosts = pgTable(
  "guilds_board_posts",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
    deletedAt: at("deleted_at"),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [index("guilds_board_posts_guild_idx").on(table.guildId, table.deletedAt, table.createdAt)],
);

export const guildBoardComments = pgTable(
  "guilds_board_comments",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => guildBoardPosts.id),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id),
    content: text("content").notNull(),
    createdAt: at("created_at").notNull(),
    deletedAt: at("deleted_at"),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [index("guilds_board_comments_post_idx").on(table.postId, table.createdAt)],
);

/** Guild chat: the last messages of each guild (older ones are pruned on write). */
export const guildMessages = pgTable(
  "guilds_messages",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    message: text("message").notNull(),
    createdAt: at("created_at").notNull(),
  },
  (table) => [index("guilds_messages_guild_idx").on(table.guildId, table.id)],
);

/**
 * What happened in a guild, for the recent-activity list of /guilds/my. `user_id` is who it happened to (the
 * joiner, the kicked member, the author), `actor_id` who did it when that is someone else; `detail` a role or
 * a title, as the kind needs.
 */
export const guildActivity = pgTable(
  "guilds_activity",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    kind: text("kind", { enum: ACTIVITY_KINDS }).notNull(),
    userId: integer("user_id").references(() => users.id),
    actorId: integer("actor_id").references(() => users.id),
    detail: text("detail").notNull().default(""),
    createdAt: at("created_at").notNull(),
  },
  (table) => [index("guilds_activity_guild_idx").on(table.guildId, table.id)],
);

/**
 * Whether each member of a finished guild game was rewarded (product-rules "Trust rules": rewards from at most
 * `REWARDED_GUILD_GAMES_PER_DAY` guild games per member and Seoul day). One row per (guild, round, member), written
 * once with the decision, so a retried finish write pays the same; `day` is the game's Seoul date (YYYY-MM-DD).
 */
export const guildGameRewards = pgTable(
  "guilds_game_rewards",
  {
    id: serial("id").primaryKey(),
    guildId: integer("guild_id")
      .notNull()
      .references(() => guilds.id),
    round: integer("round").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    day: text("day").notNull(),
    rewarded: boolean("rewarded").notNull(),
    createdAt: at("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("guilds_game_rewards_game_user_idx").on(table.guildId, table.round, table.userId),
    index("guilds_game_rewards_day_idx").on(table.day),
  ],
);

/**
 * Rewarded guild games per member and Seoul day: the counter the cap is taken from, raised by one conditional
 * upsert (`… DO UPDATE … WHERE games < cap RETURNING`), so parallel finishes never pay a 31st game.
 */
export const guildGameRewardDays = pgTable(
  "guilds_game_reward_days",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    day: text("day").notNull(),
    games: integer("games").notNull(),
  },
  (table) => [uniqueIndex("guilds_game_reward_days_user_day_idx").on(table.userId, table.day)],
);
