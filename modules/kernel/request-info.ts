import type { Server } from "bun";

/** The client's IP: the socket peer, or the first X-Forwarded-For hop when TRUST_PROXY says a proxy sets it. */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
