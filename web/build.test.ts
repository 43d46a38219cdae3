/** The web build's own helpers (scripts/): what a first visit downloads, the sliced Korean font. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstPaintCss } from "../scripts/build-web";
import { firstLoadJs } from "../scripts/first-load";
import { emitWebFonts, orderedFaces, packageFaces, parseUnicodeRange, syllablesPerFace } from "../scripts/web-fonts";

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

  test("sizes are the gzip and brotli copies' where the build wrote them", () => {
    const folder = dist({
      ...built,
      "assets/index-aaa111.js.gz": "12345",
      "assets/shared-bbb222.js.gz": "12",
      "assets/index-aaa111.js.br": "123",
    });
    const load = firstLoadJs(folder, "home-page");
    const plain = (names: string[]) =>
      names.map((name) => Buffer.byteLength(built[`assets/${name}` as keyof typeof built])).reduce((a, b) => a + b, 0);
    expect(load.gzipBytes).toBe(5 + 2 + plain(["home-page-ccc333.js", "rooms-eee555.js"]));
    expect(load.brotliBytes).toBe(3 + plain(["shared-bbb222.js", "home-page-ccc333.js", "rooms-eee555.js"]));
  });

  test("a page without a lazy chunk is an error, not a silently small figure", () => {
    expect(() => firstLoadJs(dist(built), "ranking-page")).toThrow("no lazy chunk for ranking-page");
  });
});

describe("the sliced Korean font", () => {
  test("the package's CSS gives every slice of both weights a woff2 file and a unicode-range", () => {
    for (const weight of [400, 700]) {
      const faces = packageFaces(weight);
      expect(faces.filter((face) => /^\d+$/.test(face.subset)).length).toBeGreaterThanOrEqual(100);
      expect(faces.map((face) => face.subset)).toContain("latin");
      for (const face of faces) {
        expect(face.weight).toBe(weight);
        expect(face.file).toEndWith(".woff2");
        expect(parseUnicodeRange(face.unicodeRange).length).toBeGreaterThan(0);
      }
    }
  });

  test("non-Korean subsets come first, so the Korean slices declared after them win where ranges overlap", () => {
    const ordered = orderedFaces(packageFaces(400));
    const firstKorean = ordered.findIndex((face) => /^\d+$/.test(face.subset));
    expect(
      ordered
        .slice(0, firstKorean)
        .map((face) => face.subset)
        .sort(),
    ).toEqual(["cyrillic", "latin", "latin-ext", "vietnamese"].sort());
    expect(ordered.slice(firstKorean).every((face) => /^\d+$/.test(face.subset))).toBe(true);
  });

  test("unicode-range values: single code points and ranges", () => {
    expect(parseUnicodeRange("U+39,U+4d-4e, U+ac00-d7a3")).toEqual([
      [0x39, 0x39],
      [0x4d, 0x4e],
      [0xac00, 0xd7a3],
    ]);
  });

  test("syllables are counted per slice, with repeats; other characters are not counted", () => {
    const faces = packageFaces(400);
    const counts = syllablesPerFace("가가가 abc 힣!", faces);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(4);
    const ga = faces.find((face) => parseUnicodeRange(face.unicodeRange).some(([a, b]) => a <= 0xac00 && 0xac00 <= b));
    expect(counts.get(ga!)).toBe(3);
  });

  test("the build's fonts: woff2 files with hashed names, one swap face per slice, the preload among them", () => {
    const folder = dist({ "index.html": "<head></head>" });
    const fonts = emitWebFonts(folder);
    const css = readFileSync(join(folder, fonts.stylesheet), "utf8");
    const urls = [...css.matchAll(/url\("([^"]+)"\)/g)].map((match) => match[1]);
    expect(urls.length).toBe(fonts.faces);
    expect(fonts.faces).toBe(packageFaces(400).length + packageFaces(700).length);
    expect(css.match(/font-display: swap;/g)?.length).toBe(fonts.faces);
    expect(css).not.toContain(".woff)");
    expect(css).not.toContain("data:");
    for (const url of urls) {
      expect(url).toMatch(/^\/assets\/fonts\/noto-sans-kr-[\w-]+-(400|700)-normal-[0-9a-f]{10}\.woff2$/);
      expect(existsSync(join(folder, url))).toBe(true);
    }
    expect(urls).toContain(fonts.preload);
    expect(fonts.preload).toContain("-400-normal-");
    expect(fonts.preloaded.share).toBeGreaterThan(0.2);
  });
});

describe("the first-paint CSS inlined into index.html", () => {
  test("one line without comments, holding the tokens, the body and the splash; nothing that needs the app's CSS", () => {
    const css = firstPaintCss();
    expect(css).not.toContain("\n");
    expect(css).not.toContain("/*");
    expect(css).not.toContain("</");
    for (const rule of [
      ":root{--color-bg:#f4f6fb;",
      "body{margin:0;",
      ".splash{",
      ".splash-brand{",
      ".splash-spinner{",
    ]) {
      expect(css).toContain(rule);
    }
    expect(css).not.toContain("@import");
    expect(css).not.toContain("url(");
  });
});
