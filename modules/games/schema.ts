import { sqliteKit } from "../../db/schema-kit";
import { defineGamesTables } from "./tables";

export type { Medal } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { games, results, dailyStats, owners, replays, personalBests } = sqliteKit.once(defineGamesTables);

export type GameRow = typeof games.$inferSelect;
export type ResultRow = typeof results.$inferSelect;
export type DailyStatsRow = typeof dailyStats.$inferSelect;
