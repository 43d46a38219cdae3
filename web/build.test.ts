/** The web build's own helpers (scripts/): what a first visit downloads, the Korean font (UI subset and slices). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fontverter from "fontverter";
import { Blob, Face, Font } from "harfbuzzjs";
import { SEED_ROOMS } from "../modules/rooms/service";
import { precacheList } from "../scripts/build-sw";
import { buildWeb, firstPaintCss, HOME_FIRST_LOAD_BUDGET } from "../scripts/build-web";
import { firstLoadJs } from "../scripts/first-load";
import {
  emitWebFonts,
  fontCodePoints,
  mustBeInSubset,
  orderedFaces,
  packageFaces,
  parseUnicodeRange,
  subsetSource,
  uiCodePoints,
  uiText,
  unicodeRangeOf,
} from "../scripts/web-fonts";

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

  test("a unicode-range names exactly the code points given, runs as ranges", () => {
    const points = [0x7e, 0x20, 0x21, 0x22, 0xb7, 0xac00, 0xac01, 0xac04];
    expect(unicodeRangeOf(points)).toBe("U+20-22, U+7e, U+b7, U+ac00-ac01, U+ac04");
    const covered = parseUnicodeRange(unicodeRangeOf(points)).flatMap(([first, last]) =>
      Array.from({ length: last - first + 1 }, (_, i) => first + i),
    );
    expect(covered.sort((a, b) => a - b)).toEqual([...points].sort((a, b) => a - b));
  });

  test("the UI subset is asked for every character of the texts, printable ASCII and the jamo; no control", () => {
    const points = uiCodePoints("타자\n마당 ▲\u0085");
    for (const char of "타자마당▲ ~AZaz09ㄱㅎㅏㅣ") expect(points.has(char.codePointAt(0)!)).toBe(true);
    for (const point of [0x0a, 0x85, 0x7f]) expect(points.has(point)).toBe(false);
  });
});

/** One font file (woff2 or TrueType) ready to map characters to glyphs and draw them. */
async function openFont(file: Uint8Array) {
  return new Font(new Face(new Blob(await fontverter.convert(file, "truetype"))));
}

interface DeclaredFace {
  weight: number;
  url: string;
  unicodeRange: string;
}

describe("the build's Korean font: the UI subset, the slices behind it", () => {
  let folder: string;
  let fonts: Awaited<ReturnType<typeof emitWebFonts>>;
  let css: string;
  let faces: DeclaredFace[];
  let asked: Set<number>;

  beforeAll(async () => {
    // A built bundle with a syllable no text of the app holds (뷁) and a sign the font lacks (▲).
    folder = dist({
      "index.html": "<head><title>타자마당</title></head>",
      "assets/index-aaa111.js": 'var a="뷁 새 문구 ▲ · …";',
    });
    fonts = await emitWebFonts(folder);
    css = readFileSync(join(folder, fonts.stylesheet), "utf8");
    faces = [...css.matchAll(/@font-face {([^}]*)}/g)].map(([, body]) => ({
      weight: Number(/font-weight: (\d+);/.exec(body)![1]),
      url: /url\("([^"]+)"\)/.exec(body)![1],
      unicodeRange: /unicode-range: ([^;]+);/.exec(body)![1],
    }));
    asked = uiCodePoints(uiText(folder));
  });

  test("one subset per weight, both preloaded, each holding every character of the texts it was made from", async () => {
    expect(fonts.subsets.map((subset) => subset.weight)).toEqual([400, 700]);
    expect(fonts.preloads).toEqual(fonts.subsets.map((subset) => subset.path));
    for (const subset of fonts.subsets) {
      expect(subset.path).toMatch(/^\/assets\/fonts\/noto-sans-kr-ui-(400|700)-normal-[0-9a-f]{10}\.woff2$/);
      const held = await fontCodePoints(readFileSync(join(folder, subset.path)));
      expect([...held].sort((a, b) => a - b)).toEqual(subset.codePoints);
      // Every syllable, jamo and ASCII character asked for is there; what is not is what the font itself lacks.
      const source = await fontCodePoints(readFileSync(subsetSource(subset.weight)));
      const missing = [...asked].filter((point) => !held.has(point));
      expect(missing.filter(mustBeInSubset)).toEqual([]);
      expect(missing.filter((point) => source.has(point))).toEqual([]);
      for (const text of ["뷁 새 문구 · …", "타자마당", ...SEED_ROOMS.map((room) => room.name)]) {
        for (const char of text) expect({ char, held: held.has(char.codePointAt(0)!) }).toEqual({ char, held: true });
      }
      expect(held.has("▲".codePointAt(0)!)).toBe(false);
      expect(subset.woff2.byteLength).toBeLessThan(60_000);
    }
  });

  test("per weight every slice stays declared with its range, and the subset comes last with its exact code points", () => {
    for (const subset of fonts.subsets) {
      const ofWeight = faces.filter((face) => face.weight === subset.weight);
      expect(ofWeight.length).toBe(packageFaces(subset.weight).length + 1);
      expect(ofWeight.at(-1)).toEqual({
        weight: subset.weight,
        url: subset.path,
        unicodeRange: unicodeRangeOf(subset.codePoints),
      });
      expect(ofWeight.slice(0, -1).map(({ unicodeRange }) => unicodeRange)).toEqual(
        orderedFaces(packageFaces(subset.weight)).map(({ unicodeRange }) => unicodeRange),
      );
      // Any other text still has a face of the family: all 11,172 syllables are in the slices.
      const sliceRanges = ofWeight.slice(0, -1).flatMap(({ unicodeRange }) => parseUnicodeRange(unicodeRange));
      for (let point = 0xac00; point <= 0xd7a3; point++) {
        if (!sliceRanges.some(([first, last]) => first <= point && point <= last)) throw new Error(`U+${point}`);
      }
    }
    for (const { url } of faces) {
      expect(url).toMatch(/^\/assets\/fonts\/noto-sans-kr-[\w-]+-(400|700)-normal-[0-9a-f]{10}\.woff2$/);
      expect(existsSync(join(folder, url))).toBe(true);
    }
    expect(fonts.slices).toBe(packageFaces(400).length + packageFaces(700).length);
    expect(css.match(/font-display: swap;/g)?.length).toBe(faces.length);
    expect(css).not.toContain(".woff)");
    expect(css).not.toContain("data:");
  });

  test("the subset draws each of its characters exactly as the slice it replaces: same outline, same advance", async () => {
    for (const subset of fonts.subsets) {
      const ui = await openFont(subset.woff2);
      // Without the subset a character comes from the last-declared slice whose range holds it.
      const slices = faces.filter((face) => face.weight === subset.weight && face.url !== subset.path).reverse();
      const opened = new Map<string, Font>();
      const sliceFor = async (point: number) => {
        const face = slices.find(({ unicodeRange }) =>
          parseUnicodeRange(unicodeRange).some(([first, last]) => first <= point && point <= last),
        );
        if (!face) return undefined;
        if (!opened.has(face.url)) opened.set(face.url, await openFont(readFileSync(join(folder, face.url))));
        return opened.get(face.url);
      };
      expect(ui.hExtents()).toEqual((await sliceFor(0xac00))!.hExtents());
      let compared = 0;
      for (const point of subset.codePoints) {
        const slice = await sliceFor(point);
        const glyph = slice?.glyph(point);
        if (!slice || glyph === undefined) continue;
        const mine = ui.glyph(point)!;
        const drawn = { point, path: ui.glyphToPath(mine), advance: ui.glyphHAdvance(mine) };
        expect(drawn).toEqual({ point, path: slice.glyphToPath(glyph), advance: slice.glyphHAdvance(glyph) });
        compared++;
      }
      expect(compared).toBeGreaterThan(subset.codePoints.length * 0.95);
    }
  });
});

describe("the service worker's list of files kept offline", () => {
  test("the page, every file directly under assets/ but the compressed copies, and both preloaded UI subsets", () => {
    const folder = dist({
      "index.html":
        '<head><meta name="deferred-fonts" content="/assets/fonts/noto-sans-kr-ui-400-normal-a.woff2 /assets/fonts/noto-sans-kr-ui-700-normal-b.woff2"></head>',
      "assets/index-aaa111.js": "",
      "assets/index-aaa111.js.br": "",
      "assets/index-bbb222.css": "",
    });
    mkdirSync(join(folder, "assets/fonts"));
    writeFileSync(join(folder, "assets/fonts/noto-sans-kr-1-400-normal-c.woff2"), "");
    expect(precacheList(folder)).toEqual([
      "/",
      "/assets/index-aaa111.js",
      "/assets/index-bbb222.css",
      "/assets/fonts/noto-sans-kr-ui-400-normal-a.woff2",
      "/assets/fonts/noto-sans-kr-ui-700-normal-b.woff2",
    ]);
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

describe("the built app: what a first visit downloads (issues 15 and 24)", () => {
  let built: string;

  beforeAll(async () => {
    built = mkdtempSync(join(tmpdir(), "tajamadang-web-"));
    folders.push(built);
    await buildWeb(built);
  }, 120_000);

  test("the home page's first-load JavaScript stays within its budget (gzip)", () => {
    expect(firstLoadJs(built, "home-page").gzipBytes).toBeLessThanOrEqual(HOME_FIRST_LOAD_BUDGET);
  });

  // Each script is a request, and a phone's six connections make each a round trip: /rooms/1 loaded 20 scripts
  // (12 shared chunks of 0.1–2.6 kB) before small shared chunks were folded (MIN_CHUNK_BYTES) and the report dialog
  // loaded when opened, 12 after.
  const MOST_SCRIPTS = {
    "home-page": 3,
    "room-page": 12,
    "replay-page": 7,
    "ranking-page": 3,
    "daily-page": 5,
    "practice-page": 6,
    "guild-list-page": 4,
    "board-list-page": 7,
  };

  test("each page loads the shell and a few chunks", () => {
    const counts = Object.fromEntries(
      Object.keys(MOST_SCRIPTS).map((page) => [page, firstLoadJs(built, page).files.length]),
    );
    for (const [page, most] of Object.entries(MOST_SCRIPTS)) {
      expect({ page, scripts: counts[page] }).toEqual({ page, scripts: Math.min(counts[page], most) });
    }
  });

  // Bun's minChunkSize folds most of them; a few stay apart (the Seoul clock, blocks, the report button, the clock
  // hook: each shared by pages that share nothing else).
  test("a page loads at most four shared chunks under 1 kB (/rooms/1 loaded 11)", () => {
    for (const page of Object.keys(MOST_SCRIPTS)) {
      const tiny = firstLoadJs(built, page)
        .files.filter((name) => !name.startsWith(`${page}-`))
        .filter((name) => statSync(join(built, "assets", name)).size < 1_000);
      expect({ page, tiny: Math.min(tiny.length, 4) }).toEqual({ page, tiny: tiny.length });
    }
  });
});
