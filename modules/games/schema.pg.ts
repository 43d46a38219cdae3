import { pgKit } from "../../db/schema-kit";
import { defineGamesTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { games, results, dailyStats, owners, replays, personalBests } = pgKit.once(defineGamesTables);
