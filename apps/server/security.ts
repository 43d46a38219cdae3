import { Elysia } from "elysia";

// The SPA loads only its own bundle, styles and fonts; sockets go to the same origin.
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
// Swagger UI's page starts itself with one inline script.
const SWAGGER_CSP = APP_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");

export const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
} as const;

export const securityHeaders = () =>
  new Elysia({ name: "app.security" }).onRequest(({ request, set }) => {
    const path = new URL(request.url).pathname;
    Object.assign(set.headers, SECURITY_HEADERS, {
      "content-security-policy": path.startsWith("/swagger") ? SWAGGER_CSP : APP_CSP,
    });
  });

/** True when the browser's Origin is this server itself or one of the configured origins. */
export function isAllowedOrigin(request: Request, allowList: readonly string[]): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true; // not a browser cross-origin request (curl, server-side clients, same-origin GET)
  if (allowList.includes(origin)) return true;
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}
