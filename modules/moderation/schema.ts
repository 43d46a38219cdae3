import { sqliteKit } from "../../db/schema-kit";
import { defineModerationTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the store (see tables.ts).
export const { reports, restrictions, notices, blocks, words } = sqliteKit.once(defineModerationTables);

export type ReportRow = typeof reports.$inferSelect;
export type RestrictionRow = typeof restrictions.$inferSelect;
export type NoticeRow = typeof notices.$inferSelect;
export type WordRow = typeof words.$inferSelect;
