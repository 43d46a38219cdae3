import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { compressAssets } from "../../scripts/compress-assets";
import { chooseEncoding, fileUnder } from "./static-web";
import { startTestServer, type TestServer } from "./testing";

// A web root with a sibling folder whose name starts with the root's: `dist/web` next to `dist/web-secret`.
const folder = mkdtempSync(join(tmpdir(), "tajamadang-static-"));
const webRoot = join(folder, "web");
const SECRET = "top-secret-content";
/** A script large and repetitive enough that its compressed copies are worth keeping. */
const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const 문장${i} = "가나다라마바사 ${i}";`).join("\n");
const INDEX_HTML = `<!doctype html><title>타자마당</title><body>${"<p>타자마당 한국어 타자 게임</p>".repeat(40)}</body>`;
/** What scripts/build-sw.ts and web/public leave at the root (small: served as they are). */
const SERVICE_WORKER = 'self.addEventListener("fetch",()=>{});';
const MANIFEST = '{"name":"타자마당","display":"standalone"}';
let server: TestServer;

beforeAll(async () => {
  mkdirSync(join(webRoot, "assets"), { recursive: true });
  writeFileSync(join(webRoot, "index.html"), INDEX_HTML);
  writeFileSync(join(webRoot, "assets", "app-abc123.js"), "console.log(1)");
  writeFileSync(join(webRoot, "assets", "big-def456.js"), BIG_SCRIPT);
  writeFileSync(join(webRoot, "sw.js"), SERVICE_WORKER);
  writeFileSync(join(webRoot, "manifest.webmanifest"), MANIFEST);
  await compressAssets(webRoot);
  mkdirSync(join(folder, "web-secret"));
  writeFileSync(join(folder, "web-secret", "x.txt"), SECRET);
  writeFileSync(join(folder, "outside.txt"), SECRET);
  server = await startTestServer({ env: { WEB_DIST: webRoot } });
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  body: string;
}

/**
 * One request exactly as written (fetch would normalise `..` and encodings away, and decompress), over a plain
 * TCP socket: the body is the bytes the server sent.
 */
async function rawGet(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const chunks: Uint8Array[] = [];
  const { promise: closed, resolve } = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port: server.port,
    socket: {
      data: (_socket, data) => void chunks.push(data),
      close: () => resolve(),
      error: () => resolve(),
    },
  });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${extra.join("")}Connection: close\r\n\r\n`);
  await closed;
  const raw = Buffer.concat(chunks);
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine, ...headerLines] = raw.subarray(0, split).toString("latin1").split("\r\n");
  const parsed = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  const bytes = raw.subarray(split + 4);
  return { status: Number(statusLine.split(" ")[1]), headers: parsed, bytes, body: bytes.toString("utf8") };
}

describe("static files stay inside the web root", () => {
  test.each([
    "/..%2fweb-secret/x.txt",
    "/..%2Fweb-secret%2Fx.txt",
    "/%2e%2e/web-secret/x.txt",
    "/%2e%2e%2fweb-secret%2fx.txt",
    "/assets/..%2f..%2fweb-secret/x.txt",
    "/..%2f..%2f" + "outside.txt",
    "/..%5c..%5coutside.txt",
    "/../web-secret/x.txt",
  ])("%s never serves a file outside", async (path) => {
    const res = await rawGet(path);
    expect(res.body).not.toContain(SECRET);
    expect(res.status).toBeLessThan(500);
  });

  test("an undecodable path is a 400 with a Korean text, not a 500", async () => {
    for (const path of ["/%", "/%E0%A4%A", "/assets/%zz.js", "/a%00.js"]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toBe("요청 경로가 올바르지 않습니다.");
    }
  });

  test("files inside are still served, client routes still get the SPA", async () => {
    const asset = await rawGet("/assets/app-abc123.js");
    expect(asset).toMatchObject({ status: 200, body: "console.log(1)" });
    const encoded = await rawGet("/assets%2fapp-abc123.js");
    expect(encoded.status).toBe(200);
    const route = await rawGet("/rooms/1");
    expect(route.body).toContain("<title>타자마당</title>");
  });

  test("fileUnder accepts the root's own files only", () => {
    expect(fileUnder("/srv/web", "/a/b.js")).toBe("/srv/web/a/b.js");
    expect(fileUnder("/srv/web", "/../web-secret/x")).toBeNull();
    expect(fileUnder("/srv/web", "/../web")).toBeNull();
    expect(fileUnder("/srv/web", "/")).toBeNull();
  });
});

describe("the service worker and the manifest", () => {
  test("/sw.js is JavaScript, revalidated on every load: a new build's worker is seen at the next visit", async () => {
    const res = await rawGet("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/javascript");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.body).toBe(SERVICE_WORKER);
  });

  test("/manifest.webmanifest is a web app manifest, revalidated", async () => {
    const res = await rawGet("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/manifest+json");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(JSON.parse(res.body)).toMatchObject({ name: "타자마당" });
  });
});

describe("built files are served precompressed", () => {
  const CHROME = "gzip, deflate, br, zstd";

  test("brotli when the browser accepts it: the original's type, the copy's length, Vary, immutable", async () => {
    const res = await rawGet("/assets/big-def456.js", { "Accept-Encoding": CHROME });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["content-type"]).toContain("javascript");
    expect(Number(res.headers["content-length"])).toBe(res.bytes.length);
    expect(res.bytes.length).toBeLessThan(Buffer.byteLength(BIG_SCRIPT) / 4);
    expect(brotliDecompressSync(res.bytes).toString("utf8")).toBe(BIG_SCRIPT);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("gzip when brotli is not accepted (or refused with q=0)", async () => {
    for (const header of ["gzip", "br;q=0, gzip;q=0.5", "gzip, deflate"]) {
      const res = await rawGet("/assets/big-def456.js", { "Accept-Encoding": header });
      expect(res.headers["content-encoding"], header).toBe("gzip");
      expect(Number(res.headers["content-length"]), header).toBe(res.bytes.length);
      expect(gunzipSync(res.bytes).toString("utf8"), header).toBe(BIG_SCRIPT);
    }
  });

  test("the file as it is without Accept-Encoding, for identity, or when every coding is refused", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { "Accept-Encoding": "identity" },
      { "Accept-Encoding": "br;q=0, gzip;q=0" },
    ]) {
      const res = await rawGet("/assets/big-def456.js", headers);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(res.body).toBe(BIG_SCRIPT);
      expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(BIG_SCRIPT));
    }
  });

  test("index.html for a client route is compressed too and always revalidated", async () => {
    const res = await rawGet("/rooms/1", { "Accept-Encoding": CHROME });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["content-type"]).toContain("text/html");
    expect(brotliDecompressSync(res.bytes).toString("utf8")).toBe(INDEX_HTML);
  });

  test("each representation has its own ETag; a matching If-None-Match is a 304 without a body", async () => {
    const br = await rawGet("/", { "Accept-Encoding": "br" });
    const gzip = await rawGet("/", { "Accept-Encoding": "gzip" });
    expect(br.headers.etag).toMatch(/^".+"$/);
    expect(gzip.headers.etag).not.toBe(br.headers.etag);
    const again = await rawGet("/", { "Accept-Encoding": "br", "If-None-Match": br.headers.etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    const otherCopy = await rawGet("/", { "Accept-Encoding": "gzip", "If-None-Match": br.headers.etag });
    expect(otherCopy.status).toBe(200);
  });

  test("a file too small to gain from compression is served as it is, without Vary", async () => {
    const res = await rawGet("/assets/app-abc123.js", { "Accept-Encoding": CHROME });
    expect(res.body).toBe("console.log(1)");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });

  test("chooseEncoding: br > gzip > identity among the copies that exist and the codings accepted", () => {
    expect(chooseEncoding("gzip, deflate, br", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("gzip, deflate, br", ["gzip"])).toBe("gzip");
    expect(chooseEncoding("*", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("*, br;q=0", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("BR;Q=1.0", ["br"])).toBe("br");
    expect(chooseEncoding(null, ["br", "gzip"])).toBe("identity");
    expect(chooseEncoding("deflate", ["br", "gzip"])).toBe("identity");
  });
});
