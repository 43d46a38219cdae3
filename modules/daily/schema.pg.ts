import { pgKit } from "../../db/schema-kit";
import { defineDailyTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the store (see tables.ts).
export const { days, attempts, best } = pgKit.once(defineDailyTables);
