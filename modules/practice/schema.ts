import { sqliteKit } from "../../db/schema-kit";
import { definePracticeTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the store (see tables.ts).
export const { results, jamoDays, days, goals, settings } = sqliteKit.once(definePracticeTables);

export type ResultRow = typeof results.$inferSelect;
export type DayRow = typeof days.$inferSelect;
export type GoalRow = typeof goals.$inferSelect;
