import { sqliteKit } from "../../db/schema-kit";
import { defineDailyTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the store (see tables.ts).
export const { days, attempts, best } = sqliteKit.once(defineDailyTables);

export type DayRow = typeof days.$inferSelect;
export type BestRow = typeof best.$inferSelect;
