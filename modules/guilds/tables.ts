import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";
import { ACTIVITY_KINDS, APPLICATION_STATUSES, GUILD_ROLES, INVITATION_STATUSES } from "./rules";

/**
 * The guilds module's tables, for either engine. Nothing a person wrote is hard-deleted: a disbanded guild keeps
 * its row (`deleted_at`), a member who left keeps theirs (`left_at`), posts and comments are soft-deleted, so the
 * history stays auditable.
 */
export function defineGuildsTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  const guilds = kit.table(
    "guilds",
    {
      id: kit.serialId("id"),
      name: kit.text("name").notNull(),
      /** Lower-cased name: names are unique case-insensitively among live guilds. */
      nameKey: kit.text("name_key").notNull(),
      description: kit.text("description").notNull().default(""),
      ownerId: kit
        .integer("owner_id")
        .notNull()
        .references(() => users.id),
      maxMembers: kit.integer("max_members").notNull().default(30),
      countdownSeconds: kit.integer("countdown_seconds").notNull().default(5),
      endCountdownSeconds: kit.integer("end_countdown_seconds").notNull().default(60),
      /** The guild game's problems: a JSON array of strings. */
      problems: kit.text("problems").notNull().default("[]"),
      createdAt: kit.timestamp("created_at").notNull(),
      updatedAt: kit.timestamp("updated_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
      deletedBy: kit.integer("deleted_by").references(() => users.id),
    },
    (table) => [
      // A disbanded guild frees its name.
      kit.uniqueIndex("guilds_name_key_live_unique").on(table.nameKey).where(sql`deleted_at IS NULL`),
      kit.index("guilds_live_created_idx").on(table.deletedAt, table.createdAt),
    ],
  );

  /** Memberships; a row whose `left_at` is set is history. One live membership per user (one guild per user). */
  const guildMembers = kit.table(
    "guilds_members",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      role: kit.text("role", { enum: GUILD_ROLES }).notNull(),
      joinedAt: kit.timestamp("joined_at").notNull(),
      leftAt: kit.timestamp("left_at"),
    },
    (table) => [
      kit.uniqueIndex("guilds_members_user_live_unique").on(table.userId).where(sql`left_at IS NULL`),
      kit.index("guilds_members_guild_idx").on(table.guildId, table.leftAt),
    ],
  );

  /**
   * Invitations by e-mail (lower-cased): an account registered later with that e-mail sees them. One pending
   * invitation per guild and e-mail.
   */
  const guildInvitations = kit.table(
    "guilds_invitations",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      email: kit.text("email").notNull(),
      /** The name the inviting admin typed next to the e-mail (shown to admins only; identity is the e-mail). */
      username: kit.text("username").notNull().default(""),
      invitedBy: kit
        .integer("invited_by")
        .notNull()
        .references(() => users.id),
      status: kit.text("status", { enum: INVITATION_STATUSES }).notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      respondedAt: kit.timestamp("responded_at"),
    },
    (table) => [
      kit
        .uniqueIndex("guilds_invitations_pending_unique")
        .on(table.guildId, table.email)
        .where(sql`status = 'pending'`),
      kit.index("guilds_invitations_email_idx").on(table.email, table.status),
    ],
  );

  /** Recruitment posts (soft-deleted); `view_count` counts a viewer at most once per window (see the views table). */
  const guildRecruitmentPosts = kit.table(
    "guilds_recruitment_posts",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      authorId: kit
        .integer("author_id")
        .notNull()
        .references(() => users.id),
      title: kit.text("title").notNull(),
      content: kit.text("content").notNull(),
      viewCount: kit.integer("view_count").notNull().default(0),
      createdAt: kit.timestamp("created_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
    },
    (table) => [kit.index("guilds_recruitment_posts_live_idx").on(table.deletedAt, table.createdAt)],
  );

  /** One row per (recruitment post, viewer): when that viewer's visit was last counted. */
  const guildRecruitmentViews = kit.table(
    "guilds_recruitment_views",
    {
      id: kit.serialId("id"),
      postId: kit
        .integer("post_id")
        .notNull()
        .references(() => guildRecruitmentPosts.id),
      viewerKey: kit.text("viewer_key").notNull(),
      countedAt: kit.timestamp("counted_at").notNull(),
    },
    (table) => [kit.uniqueIndex("guilds_recruitment_views_post_viewer_unique").on(table.postId, table.viewerKey)],
  );

  /** Applications to join a guild (through a recruitment post); one pending application per guild and user. */
  const guildApplications = kit.table(
    "guilds_applications",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      postId: kit.integer("post_id").references(() => guildRecruitmentPosts.id),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      message: kit.text("message").notNull().default(""),
      status: kit.text("status", { enum: APPLICATION_STATUSES }).notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      decidedAt: kit.timestamp("decided_at"),
      decidedBy: kit.integer("decided_by").references(() => users.id),
    },
    (table) => [
      kit
        .uniqueIndex("guilds_applications_pending_unique")
        .on(table.guildId, table.userId)
        .where(sql`status = 'pending'`),
      kit.index("guilds_applications_guild_idx").on(table.guildId, table.createdAt),
      kit.index("guilds_applications_post_idx").on(table.postId),
    ],
  );

  /** The guild board (members only); `comment_count` is kept with the comments' writes so lists need no count. */
  const guildBoardPosts = kit.table(
    "guilds_board_posts",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      authorId: kit
        .integer("author_id")
        .notNull()
        .references(() => users.id),
      title: kit.text("title").notNull(),
      content: kit.text("content").notNull(),
      commentCount: kit.integer("comment_count").notNull().default(0),
      createdAt: kit.timestamp("created_at").notNull(),
      updatedAt: kit.timestamp("updated_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
      deletedBy: kit.integer("deleted_by").references(() => users.id),
    },
    (table) => [kit.index("guilds_board_posts_guild_idx").on(table.guildId, table.deletedAt, table.createdAt)],
  );

  const guildBoardComments = kit.table(
    "guilds_board_comments",
    {
      id: kit.serialId("id"),
      postId: kit
        .integer("post_id")
        .notNull()
        .references(() => guildBoardPosts.id),
      authorId: kit
        .integer("author_id")
        .notNull()
        .references(() => users.id),
      content: kit.text("content").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
      deletedBy: kit.integer("deleted_by").references(() => users.id),
    },
    (table) => [kit.index("guilds_board_comments_post_idx").on(table.postId, table.createdAt)],
  );

  /** Guild chat: the last messages of each guild (older ones are pruned on write). */
  const guildMessages = kit.table(
    "guilds_messages",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      message: kit.text("message").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [kit.index("guilds_messages_guild_idx").on(table.guildId, table.id)],
  );

  /**
   * What happened in a guild, for the recent-activity list of /guilds/my. `user_id` is who it happened to (the
   * joiner, the kicked member, the author), `actor_id` who did it when that is someone else; `detail` a role or
   * a title, as the kind needs.
   */
  const guildActivity = kit.table(
    "guilds_activity",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      kind: kit.text("kind", { enum: ACTIVITY_KINDS }).notNull(),
      userId: kit.integer("user_id").references(() => users.id),
      actorId: kit.integer("actor_id").references(() => users.id),
      detail: kit.text("detail").notNull().default(""),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [kit.index("guilds_activity_guild_idx").on(table.guildId, table.id)],
  );

  /**
   * Whether each member of a finished guild game was rewarded (product-rules "Trust rules": rewards from at most
   * `REWARDED_GUILD_GAMES_PER_DAY` guild games per member and Seoul day). One row per (guild, round, member), written
   * once with the decision, so a retried finish write pays the same; `day` is the game's Seoul date (YYYY-MM-DD).
   */
  const guildGameRewards = kit.table(
    "guilds_game_rewards",
    {
      id: kit.serialId("id"),
      guildId: kit
        .integer("guild_id")
        .notNull()
        .references(() => guilds.id),
      round: kit.integer("round").notNull(),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      day: kit.text("day").notNull(),
      rewarded: kit.boolean("rewarded").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.uniqueIndex("guilds_game_rewards_game_user_idx").on(table.guildId, table.round, table.userId),
      kit.index("guilds_game_rewards_day_idx").on(table.day),
    ],
  );

  /**
   * Rewarded guild games per member and Seoul day: the counter the cap is taken from, raised by one conditional
   * upsert (`… DO UPDATE … WHERE games < cap RETURNING`), so parallel finishes never pay a 31st game.
   */
  const guildGameRewardDays = kit.table(
    "guilds_game_reward_days",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      day: kit.text("day").notNull(),
      games: kit.integer("games").notNull(),
    },
    (table) => [kit.uniqueIndex("guilds_game_reward_days_user_day_idx").on(table.userId, table.day)],
  );

  return {
    guilds,
    guildMembers,
    guildInvitations,
    guildRecruitmentPosts,
    guildRecruitmentViews,
    guildApplications,
    guildBoardPosts,
    guildBoardComments,
    guildMessages,
    guildActivity,
    guildGameRewards,
    guildGameRewardDays,
  };
}
