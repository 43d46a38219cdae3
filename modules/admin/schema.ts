import { sqliteKit } from "../../db/schema-kit";
import { defineAdminTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { adminLogs } = sqliteKit.once(defineAdminTables);

export type AdminLogRow = typeof adminLogs.$inferSelect;
