import { pgKit } from "../../db/schema-kit";
import { defineRankingsTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { periodStats, recounts, excludedUsers } = pgKit.once(defineRankingsTables);
