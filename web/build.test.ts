/** The web build's own helpers (scripts/): what a first visit downloads. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstLoadJs } from "../scripts/first-load";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A dist folder with these files (paths under it). */
function dist(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "tajamadang-build-"));
  folders.push(folder);
  mkdirSync(join(folder, "assets"));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(folder, path), text);
  return folder;
}

describe("firstLoadJs", () => {
  // The shapes Bun's minified ESM chunks use: `import{a}from"…"`, bare `import"…"`, `import("…")` for lazy routes.
  const built = {
    "index.html": '<head><script type="module" crossorigin src="/assets/index-aaa111.js"></script></head>',
    "assets/index-aaa111.js":
      'import{s}from"/assets/shared-bbb222.js";var r=[()=>import("/assets/home-page-ccc333.js"),()=>import("/assets/board-list-page-ddd444.js")];',
    "assets/shared-bbb222.js": "export var s=1;",
    "assets/home-page-ccc333.js": 'import{r}from"/assets/index-aaa111.js";import"/assets/rooms-eee555.js";export{};',
    "assets/rooms-eee555.js": "console.log(1);",
    "assets/board-list-page-ddd444.js": 'import"/assets/board-fff666.js";',
    "assets/board-fff666.js": "x".repeat(5000),
  };

  test("the entry, its static imports and the page's lazy chunk with its own imports; other pages' chunks not", () => {
    const load = firstLoadJs(dist(built), "home-page");
    expect(load.files.sort()).toEqual(
      ["index-aaa111.js", "shared-bbb222.js", "home-page-ccc333.js", "rooms-eee555.js"].sort(),
    );
    const sum = ["index-aaa111.js", "shared-bbb222.js", "home-page-ccc333.js", "rooms-eee555.js"]
      .map((name) => Buffer.byteLength(built[`assets/${name}` as keyof typeof built]))
      .reduce((a, b) => a + b, 0);
    expect(load.bytes).toBe(sum);
  });

  test("sizes are the gzip copies' where the build wrote them", () => {
    const folder = dist({ ...built, "assets/index-aaa111.js.gz": "12345", "assets/shared-bbb222.js.gz": "12" });
    const load = firstLoadJs(folder, "home-page");
    const plain = ["home-page-ccc333.js", "rooms-eee555.js"]
      .map((name) => Buffer.byteLength(built[`assets/${name}` as keyof typeof built]))
      .reduce((a, b) => a + b, 0);
    expect(load.gzipBytes).toBe(5 + 2 + plain);
  });

  test("a page without a lazy chunk is an error, not a silently small figure", () => {
    expect(() => firstLoadJs(dist(built), "ranking-page")).toThrow("no lazy chunk for ranking-page");
  });
});
