import { pgKit } from "../../db/schema-kit";
import { definePracticeTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the store (see tables.ts).
export const { results, jamoDays, days, goals, settings } = pgKit.once(definePracticeTables);
