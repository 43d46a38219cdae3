import { createHash } from "node:crypto";
import { clientIp, type TrustedProxies } from "./request-info";

/**
 * Who a visit counts for, shared by the free board's posts and the guild recruitment posts (server only: the web
 * pages never import this). In the kernel, not the board module, because the rule is generic and guilds then need
 * no dependency on board.
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
