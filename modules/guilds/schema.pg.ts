import { pgKit } from "../../db/schema-kit";
import { defineGuildsTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
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
} = pgKit.once(defineGuildsTables);
