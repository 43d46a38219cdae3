import { sqliteKit } from "../../db/schema-kit";
import { defineDuelTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { duelPlayers, duelGames, duelDaily, duelPreferences } = sqliteKit.once(defineDuelTables);

export type DuelPlayerRow = typeof duelPlayers.$inferSelect;
export type DuelGameRow = typeof duelGames.$inferSelect;
