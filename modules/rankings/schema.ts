import { sqliteKit } from "../../db/schema-kit";
import { defineRankingsTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { periodStats, recounts, excludedUsers } = sqliteKit.once(defineRankingsTables);

export type PeriodStatsRow = typeof periodStats.$inferSelect;
