import { existsSync, statSync } from "node:fs";
import { extname, join, resolve, sep } from "node:path";
import { Elysia } from "elysia";
import { jsonResponse } from "./errors";

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

/**
 * Serves the prebuilt SPA from dist/web: files as they are (hashed names cached for a year), and index.html for
 * every client route (/rooms/1, /board/3). /api/* and /socket.io/* never get HTML: unknown API paths are a JSON 404.
 */
export function staticWeb(webDist: string) {
  const root = resolve(webDist);
  const indexFile = join(root, "index.html");
  const indexHtml = () =>
    existsSync(indexFile)
      ? new Response(Bun.file(indexFile), { headers: { "cache-control": "no-cache" } })
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
        if (file && existsSync(file) && statSync(file).isFile()) {
          const immutable = /-[a-z0-9]{6,}\.\w+$/.test(file) || file.includes("/assets/");
          return new Response(Bun.file(file), {
            headers: { "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache" },
          });
        }
        // A missing file with an extension is a real 404; anything else is a client route.
        if (extname(path)) {
          return new Response("파일을 찾을 수 없습니다.", {
            status: 404,
            headers: { "content-type": "text/plain; charset=utf-8" },
          });
        }
        return indexHtml();
      },
      hidden,
    );
}
