import { sqliteKit } from "../../db/schema-kit";
import { defineBoardTables } from "./tables";

// SQLite's tables, for drizzle-kit (drizzle.config.ts) and the stores (see tables.ts).
export const { boardPosts, boardComments, boardPostViews } = sqliteKit.once(defineBoardTables);

export type PostRow = typeof boardPosts.$inferSelect;
export type CommentRow = typeof boardComments.$inferSelect;
