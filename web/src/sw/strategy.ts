/**
 * Which requests the service worker answers, and how (web/README.md "Offline"). Pure: the worker
 * (service-worker.ts) and its unit test share it.
 *
 * - `page`: a navigation to a client route. The network first, so every load online is today's index.html (it
 *   is `no-cache`); the cached shell when the network fails, so the app opens offline.
 * - `asset`: a file under /assets/. Its name carries its content hash and never changes: the cache first.
 * - `content`: what 타자 연습 types (the 긴 글, a word sample, the sentences). The network first (online a player
 *   gets fresh words); offline the sample cached at install, whatever the query asked.
 * - null: everything else goes to the network untouched — every other /api call (live figures are never served
 *   from a cache), socket.io, Swagger, writes.
 */

export type Strategy = "page" | "asset" | "content";

/** Routes of the practice content the worker keeps; each is cached at install under the URL of `OFFLINE_CONTENT`. */
const CONTENT_PATHS = [
  /^\/api\/practice\/texts(\/[^/]+)?$/,
  /^\/api\/practice\/words$/,
  /^\/api\/practice\/sentences$/,
];

/** Paths the server answers itself, never with the app's index.html. */
const SERVER_PATHS = /^\/(api|socket\.io|swagger)(\/|$)/;

/**
 * The practice content cached at install (the 긴 글 themselves are added from the catalogue's ids): the largest
 * word and sentence samples the routes give (modules/practice rules: 100 words, 30 sentences).
 */
export const OFFLINE_CONTENT = [
  "/api/practice/texts",
  "/api/practice/words?count=100",
  "/api/practice/sentences?count=30",
] as const;

export const longTextUrl = (id: string) => `/api/practice/texts/${encodeURIComponent(id)}`;

export function strategyFor(request: { method: string; mode: string; url: string }, origin: string): Strategy | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== origin) return null;
  if (request.mode === "navigate") return SERVER_PATHS.test(url.pathname) ? null : "page";
  if (url.pathname.startsWith("/assets/")) return "asset";
  if (CONTENT_PATHS.some((path) => path.test(url.pathname))) return "content";
  return null;
}

/**
 * Offline, a word or sentence list answers from the sample whatever its `count` or `focus` (the page picks from
 * it); a 긴 글 is cached under its own URL.
 */
export const ignoresQuery = (pathname: string) => !pathname.startsWith("/api/practice/texts");

/** Every cache of this app starts with this; the version (the build's hash) follows. */
export const CACHE_PREFIX = "tajamadang-";
