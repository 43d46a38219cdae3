import { pgKit } from "../../db/schema-kit";
import { defineDuelTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { duelPlayers, duelGames, duelDaily, duelPreferences } = pgKit.once(defineDuelTables);
