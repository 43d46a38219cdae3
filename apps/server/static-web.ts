import { existsSync, type Stats, statSync } from "node:fs";
import { extname, join, resolve, sep } from "node:path";
import { Elysia } from "elysia";
import { jsonResponse } from "./errors";

/** The precompressed copies scripts/compress-assets.ts writes next to a built file, best first. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type ContentEncoding = (typeof ENCODINGS)[number]["name"] | "identity";

/**
 * The content codings an `Accept-Encoding` header allows, as a name → q-value map (`*` included). A coding
 * listed with q=0 is refused; an absent header allows only identity (RFC 9110 §12.5.3).
 */
function acceptedCodings(header: string | null): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(value) ? value : 0);
  }
  return accepted;
}

/** br, then gzip, then identity: the first coding the client accepts (q > 0) among those `available`. */
export function chooseEncoding(header: string | null, available: readonly ContentEncoding[]): ContentEncoding {
  const accepted = acceptedCodings(header);
  const allows = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return ENCODINGS.find((encoding) => available.includes(encoding.name) && allows(encoding.name))?.name ?? "identity";
}

/** A strong validator per stored representation: its size and modification time (each copy is its own file). */
const etagOf = (stats: Stats) => `"${stats.size.toString(36)}-${Math.trunc(stats.mtimeMs).toString(36)}"`;

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * One built file as the client asked for it: the best precompressed copy it accepts (`Content-Encoding`, the
 * original's type, the copy's length), `Vary: Accept-Encoding` whenever copies exist, an ETag per copy and a
 * 304 for a matching `If-None-Match`.
 */
export function serveFile(file: string, request: Request, cacheControl: string): Response {
  const copies = ENCODINGS.filter((encoding) => isFile(file + encoding.suffix));
  const encoding = chooseEncoding(
    request.headers.get("accept-encoding"),
    copies.map((copy) => copy.name),
  );
  const served = encoding === "identity" ? file : file + ENCODINGS.find((e) => e.name === encoding)!.suffix;
  const etag = etagOf(statSync(served));
  const headers: Record<string, string> = { "cache-control": cacheControl, etag };
  if (copies.length > 0) headers.vary = "Accept-Encoding";
  if (
    request.headers
      .get("if-none-match")
      ?.split(",")
      .some((tag) => tag.trim() === etag)
  ) {
    return new Response(null, { status: 304, headers });
  }
  const body = Bun.file(served);
  headers["content-type"] = Bun.file(file).type;
  headers["content-length"] = String(body.size);
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  return new Response(body, { headers });
}

const badPath = () =>
  new Response("요청 경로가 올바르지 않습니다.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });

/** The percent-decoded path, or null when it cannot be decoded (`/%`) or holds a NUL byte. */
function decodedPath(url: string): string | null {
  try {
    const path = decodeURIComponent(new URL(url).pathname);
    return path.includes("\0") ? null : path;
  } catch {
    return null;
  }
}

/**
 * The file `path` names inside `root`, or null when it resolves outside: decoding turns `%2f` into `/`, so
 * `/..%2fweb-secret/x` resolves to a sibling folder whose name merely starts with the root's. Only the root itself
 * followed by a separator is inside.
 */
export function fileUnder(root: string, path: string): string | null {
  const file = resolve(root, `.${sep}${path}`);
  return file.startsWith(root + sep) ? file : null;
}

/** Files under assets/ carry a content hash in their name: they never change, so browsers keep them a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html and unhashed files: revalidated on every load (a 304 when unchanged), so a deploy shows at once. */
const REVALIDATE = "no-cache";

/**
 * Serves the prebuilt SPA from dist/web: each file precompressed when the client accepts it (`serveFile`),
 * hashed names cached for a year, and index.html for every client route (/rooms/1, /board/3). /api/* and
 * /socket.io/* never get HTML: unknown API paths are a JSON 404.
 */
export function staticWeb(webDist: string) {
  const root = resolve(webDist);
  const indexFile = join(root, "index.html");
  const indexHtml = (request: Request) =>
    existsSync(indexFile)
      ? serveFile(indexFile, request, REVALIDATE)
      : new Response("웹 앱이 아직 빌드되지 않았습니다. `bun run build`를 실행하세요.", {
          status: 503,
          headers: { "content-type": "text/plain; charset=utf-8" },
        });

  const hidden = { detail: { hide: true } };
  const apiMissing = () => jsonResponse(404, { detail: "요청한 API를 찾을 수 없습니다." });
  const socketMisrouted = () => jsonResponse(400, { detail: "socket.io 요청 형식이 올바르지 않습니다." });
  // GET routes are matched before ALL ones, so the API and socket.io fallbacks are registered for GET too.
  return new Elysia({ name: "app.static-web" })
    .get("/api/*", apiMissing, hidden)
    .all("/api/*", apiMissing, hidden)
    .get("/socket.io/*", socketMisrouted, hidden)
    .all("/socket.io/*", socketMisrouted, hidden)
    .get(
      "/*",
      ({ request }) => {
        const path = decodedPath(request.url);
        if (path === null) return badPath();
        const file = fileUnder(root, path);
        if (file && isFile(file)) {
          const hashed = file.startsWith(join(root, "assets") + sep);
          return serveFile(file, request, hashed ? IMMUTABLE : REVALIDATE);
        }
        // A missing file with an extension is a real 404; anything else is a client route.
        if (extname(path)) {
          return new Response("파일을 찾을 수 없습니다.", {
            status: 404,
            headers: { "content-type": "text/plain; charset=utf-8" },
          });
        }
        return indexHtml(request);
      },
      hidden,
    );
}
