import { sqliteKit } from "../../db/schema-kit";
import { defineGuildsTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const {
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
} = sqliteKit.once(defineGuildsTables);

export type GuildRow = typeof guilds.$inferSelect;
export type MemberRow = typeof guildMembers.$inferSelect;
export type GuildRole = MemberRow["role"];
export type InvitationRow = typeof guildInvitations.$inferSelect;
export type ApplicationRow = typeof guildApplications.$inferSelect;
export type RecruitmentRow = typeof guildRecruitmentPosts.$inferSelect;
export type BoardPostRow = typeof guildBoardPosts.$inferSelect;
export type BoardCommentRow = typeof guildBoardComments.$inferSelect;
export type ActivityRow = typeof guildActivity.$inferSelect;
export type MessageRow = typeof guildMessages.$inferSelect;
