import { pgKit } from "../../db/schema-kit";
import { defineBoardTables } from "./tables";

// PostgreSQL's tables, for drizzle-kit (drizzle.pg.config.ts) and the stores (see tables.ts).
export const { boardPosts, boardComments, boardPostViews } = pgKit.once(defineBoardTables);
