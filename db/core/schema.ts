import { sqliteKit } from "../schema-kit";
import { defineCoreTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { users } = sqliteKit.once(defineCoreTables);

export type UserRow = typeof users.$inferSelect;
