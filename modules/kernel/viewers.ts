import { createHash } from "node:crypto";
import { eq, lte, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { StoreDb } from "../../db/store";
import { clientIp, type TrustedProxies } from "./request-info";

/**
 * Who a visit counts for and how it is counted, shared by the free board's posts and the guild recruitment posts
 * (server only: the web pages never import this). In the kernel, not the board module, because the rule is generic
 * and guilds then need no dependency on board.
 */

/** A viewer's visits to one post count at most once per this window. */
export const VIEW_WINDOW_MS = 10 * 60 * 1000;

/**
 * The viewer of a visit: the logged-in user (`u:<id>`, the caller's accounts guard finds them), else a hash of the
 * client's IP and user agent (`a:<32 chars>`, so nothing personal is stored).
 */
export function viewerKey(
  userId: number | null | undefined,
  request: Request,
  server: Parameters<typeof clientIp>[1],
  proxies: TrustedProxies,
) {
  if (userId != null) return `u:${userId}`;
  const ip = clientIp(request, server, proxies);
  const agent = request.headers.get("user-agent") ?? "";
  return `a:${createHash("sha256").update(`${ip}\n${agent}`).digest("base64url").slice(0, 32)}`;
}

/** A table of counted visits: one row per (post, viewer), the time of the last visit that counted. */
type ViewsTable = SQLiteTable & {
  id: SQLiteColumn;
  postId: SQLiteColumn;
  viewerKey: SQLiteColumn;
  countedAt: SQLiteColumn;
};
/** The posts those visits count for. */
type ViewedTable = SQLiteTable & { id: SQLiteColumn; viewCount: SQLiteColumn };

/**
 * Counts a visit of `viewerKey` to a post unless its last counted visit is younger than `since` (so a reload storm
 * adds one view per viewer per window, and a genuine later visit counts again); true when it counted. One
 * statement checks and writes (an upsert whose update only happens when the last count is old enough, RETURNING
 * says whether a row was written), so parallel visits of one viewer count once on both engines: PostgreSQL locks
 * the conflicting row and re-checks the condition, SQLite has one writer at a time. Call it inside the caller's
 * transaction: the post's count is raised by a second statement.
 */
export async function countViewOnce(
  db: StoreDb,
  tables: { views: ViewsTable; posts: ViewedTable },
  visit: { postId: number; viewerKey: string; at: Date; since: Date },
) {
  const { views, posts } = tables;
  const { postId, viewerKey, at, since } = visit;
  // The columns are known by name only here (each module has its own tables), so the row is not typed by them.
  const written = await db
    .insert(views)
    .values({ postId, viewerKey, countedAt: at } as never)
    .onConflictDoUpdate({
      target: [views.postId, views.viewerKey],
      set: { countedAt: at } as never,
      setWhere: lte(views.countedAt, since),
    })
    .returning({ id: views.id });
  if (written.length === 0) return false;
  await db
    .update(posts)
    .set({ viewCount: sql`${posts.viewCount} + 1` } as never)
    .where(eq(posts.id, postId));
  return true;
}
