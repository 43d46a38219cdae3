import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileUnder } from "./static-web";
import { startTestServer, type TestServer } from "./testing";

// A web root with a sibling folder whose name starts with the root's: `dist/web` next to `dist/web-secret`.
const folder = mkdtempSync(join(tmpdir(), "tajamadang-static-"));
const webRoot = join(folder, "web");
const SECRET = "top-secret-content";
let server: TestServer;

beforeAll(async () => {
  mkdirSync(join(webRoot, "assets"), { recursive: true });
  writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>타자마당</title>");
  writeFileSync(join(webRoot, "assets", "app-abc123.js"), "console.log(1)");
  mkdirSync(join(folder, "web-secret"));
  writeFileSync(join(folder, "web-secret", "x.txt"), SECRET);
  writeFileSync(join(folder, "outside.txt"), SECRET);
  server = await startTestServer({ env: { WEB_DIST: webRoot } });
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** One request exactly as written (fetch would normalise `..` and encodings away), over a plain TCP socket. */
async function rawGet(path: string): Promise<{ status: number; body: string }> {
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
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
  await closed;
  const text = Buffer.concat(chunks).toString("utf8");
  const [head, ...body] = text.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: body.join("\r\n\r\n") };
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
