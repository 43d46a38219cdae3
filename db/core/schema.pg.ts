import { pgKit } from "../schema-kit";
import { defineCoreTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { users } = pgKit.once(defineCoreTables);
