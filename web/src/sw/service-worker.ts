/**
 * The app's service worker (/sw.js, web/README.md "Offline"): 타자 연습 works without a connection. Built by
 * scripts/build-sw.ts, which fills in the build's version and the files to keep; registered by the app in
 * production builds (register.ts). No Workbox: three strategies over one cache (strategy.ts) are ~1 kB, and the
 * precache list comes from our own build, which Workbox's build tools would have to be taught to read anyway.
 */
import { CACHE_PREFIX, ignoresQuery, longTextUrl, OFFLINE_CONTENT, type Strategy, strategyFor } from "./strategy";

/** Filled in by scripts/build-sw.ts: a hash of the build, and the shell's files (index.html as "/", /assets/…). */
declare const SW_VERSION: string;
declare const SW_PRECACHE: string[];

/** The parts of the worker's global scope and events used here (the DOM lib, which the web compiles with, has none). */
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const CACHE = `${CACHE_PREFIX}${SW_VERSION}`;
const SHELL = "/";
/**
 * Entries are matched by URL alone: the cache keys are the worker's own requests (no Accept-Encoding, no
 * Authorization), and the files are the same whatever a page's request carries.
 */
const MATCH: CacheQueryOptions = { ignoreVary: true };

/**
 * A hashed file the previous version already holds is copied from its cache: an update downloads only what
 * changed. Anything else (index.html, the practice content) is asked of the server, past the HTTP cache.
 */
async function keep(cache: Cache, url: string) {
  const previous = url.startsWith("/assets/") ? await caches.match(url, MATCH) : undefined;
  const response = previous ?? (await fetch(new Request(url, { cache: "no-cache" })));
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  await cache.put(url, response);
}

/** The shell, then the practice content: the catalogue's 긴 글 each under its own URL. */
async function install() {
  const cache = await caches.open(CACHE);
  await Promise.all([...SW_PRECACHE, ...OFFLINE_CONTENT].map((url) => keep(cache, url)));
  const catalogue = (await (await cache.match(OFFLINE_CONTENT[0], MATCH))?.json()) as { long: { id: string }[] };
  await Promise.all(catalogue.long.map(({ id }) => keep(cache, longTextUrl(id))));
}

/** An update replaces the old version's cache: its files are either in the new one or gone from the server. */
async function activate() {
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
  );
  await worker.clients.claim();
}

const unavailable = () => new Response(null, { status: 503, statusText: "offline" });
const serverDown = (response: Response) =>
  response.status === 502 || response.status === 503 || response.status === 504;

async function answer(request: Request, strategy: Strategy): Promise<Response> {
  const cache = await caches.open(CACHE);
  if (strategy === "asset") {
    const cached = await cache.match(request, MATCH);
    if (cached) return cached;
    const response = await fetch(request);
    // A file seen online (another font slice, a chunk of a later version) is there offline too.
    if (response.ok) await cache.put(request, response.clone());
    return response;
  }
  try {
    const response = await fetch(request);
    if (strategy === "page" && serverDown(response)) return (await cache.match(SHELL, MATCH)) ?? response;
    return response;
  } catch {
    const pathname = new URL(request.url).pathname;
    const fallback =
      strategy === "page"
        ? await cache.match(SHELL, MATCH)
        : await cache.match(request, { ...MATCH, ignoreSearch: ignoresQuery(pathname) });
    return fallback ?? unavailable();
  }
}

worker.addEventListener("install", (event) => {
  void worker.skipWaiting();
  event.waitUntil(install());
});
worker.addEventListener("activate", (event) => event.waitUntil(activate()));
worker.addEventListener("fetch", (event) => {
  const strategy = strategyFor(event.request, worker.location.origin);
  if (strategy) event.respondWith(answer(event.request, strategy));
});
