import { pgKit } from "../../db/schema-kit";
import { defineAdminTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { adminLogs } = pgKit.once(defineAdminTables);
