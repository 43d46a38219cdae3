import { pgKit } from "../../db/schema-kit";
import { defineModerationTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the store (see tables.ts).
export const { reports, restrictions, notices, blocks, words } = pgKit.once(defineModerationTables);
