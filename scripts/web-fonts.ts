/**
 * The Korean web font in two layers (web/README.md "Build and serving"). `@fontsource/noto-sans-kr` ships Noto Sans
 * KR cut into ~125 files per weight (120 numbered Korean slices of about 8–20 KB, each with its `unicode-range`,
 * plus latin, latin-ext, cyrillic and vietnamese), so a browser downloads only the slices holding the characters a
 * page shows. A page of UI text alone still touched 14–17 slices (≈ 125 KB in three rounds of six connections on
 * a slow phone), so the build adds one file per weight holding every character of the app's own texts:
 *
 * - `assets/fonts/noto-sans-kr-ui-<weight>-normal-<hash>.woff2`: the UI subset, cut by HarfBuzz (npm `subset-font`)
 *   from the package's own whole-Hangul file of that weight (`files/noto-sans-kr-korean-<weight>-normal.woff2`,
 *   all 11,172 syllables, the compatibility jamo, ASCII and Latin-1: the same font version as the slices, so the
 *   same outlines, advances and vertical metrics). Its characters: every one in the built bundle (the web app's
 *   texts, the shared modules' texts it imports) and in the server's own texts the pages show (modules/: messages,
 *   seeded room names, system lines; not the words players type), printable ASCII and the modern compatibility jamo
 *   the IME shows while a syllable is composed, as far as the font has them;
 * - `assets/fonts/<slice>-<hash>.woff2`: the slices' woff2 files, as the package has them (the .woff fallbacks
 *   serve no browser we support);
 * - `assets/fonts-<hash>.css`: per weight, one `@font-face` per slice (non-Korean subsets first, so where ranges
 *   overlap, e.g. ASCII in latin and in Korean slice 119, the Korean slice wins), then the UI subset's face with
 *   the exact code points it holds as its `unicode-range`. Where ranges overlap the face declared last is checked
 *   first (CSS Fonts 4, "unicode-range": "the last rule defined is the first to be checked for a given character"),
 *   so the UI's characters come from the subset and a slice is downloaded only for other text: user names,
 *   sentences, chat. Every face is the same family "Noto Sans KR", `font-display: swap`;
 * - in index.html, both subsets preloaded (every page draws regular and bold UI text).
 *
 * Bun's bundler is not used for this: it inlines every CSS `url()` under 128 KB as a data: URI (Bun 1.4.5, no
 * option to turn that off), which would put all 250 slices into the stylesheet.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fontverter from "fontverter";
import { Blob, Face } from "harfbuzzjs";
import subsetFont from "subset-font";

const ROOT = join(import.meta.dir, "..");
const PACKAGE = "@fontsource/noto-sans-kr";
const PACKAGE_DIR = join(ROOT, "node_modules", PACKAGE);
const WEIGHTS = [400, 700] as const;
/** Where the server's own texts are: the messages, names and lines it sends the pages. */
const SERVER_TEXT_SOURCES = [join(ROOT, "modules")];
/** Text the players type, not text the UI says: the duel's word list (the rooms' sentences are JSON, not read). */
const GAME_CONTENT = new Set([join(ROOT, "modules/duel/words.ts")]);
/** Files that only tests and type checks read. */
const TEST_ONLY = /\.test\.|\.typecheck\.|test-|-testing\./;

export interface FontFace {
  /** The slice's name in the package: "0"…"119", "latin", "latin-ext", "cyrillic", "vietnamese". */
  subset: string;
  weight: number;
  /** File name in the package's files/ folder, e.g. noto-sans-kr-118-400-normal.woff2. */
  file: string;
  unicodeRange: string;
}

const FACE = /\/\* noto-sans-kr-\[?([\w-]+?)\]?-(\d+)-normal \*\/\s*@font-face\s*{([^}]*)}/g;

/** The faces of one weight's CSS in the package, in its order. */
export function packageFaces(weight: number): FontFace[] {
  const css = readFileSync(join(PACKAGE_DIR, `${weight}.css`), "utf8");
  return [...css.matchAll(FACE)].map(([, subset, faceWeight, body]) => {
    const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(body)?.[1];
    const unicodeRange = /unicode-range:\s*([^;]+);/.exec(body)?.[1];
    if (!file || !unicodeRange) throw new Error(`${PACKAGE} ${weight}.css: unexpected face ${subset}`);
    return { subset, weight: Number(faceWeight), file, unicodeRange: unicodeRange.trim() };
  });
}

const isKoreanSlice = (face: FontFace) => /^\d+$/.test(face.subset);

/** Non-Korean subsets first: the later Korean slices then take precedence where ranges overlap. */
export function orderedFaces(faces: FontFace[]): FontFace[] {
  return [...faces.filter((face) => !isKoreanSlice(face)), ...faces.filter(isKoreanSlice)];
}

function faceCss(weight: number, unicodeRange: string, url: string): string {
  return [
    "@font-face {",
    '  font-family: "Noto Sans KR";',
    "  font-style: normal;",
    "  font-display: swap;",
    `  font-weight: ${weight};`,
    `  src: url("${url}") format("woff2");`,
    `  unicode-range: ${unicodeRange};`,
    "}",
  ].join("\n");
}

const contentHash = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex").slice(0, 10);

/** The code points a unicode-range value covers, as [first, last] pairs. */
export function parseUnicodeRange(value: string): [number, number][] {
  return value.split(",").map((part) => {
    const [first, last = first] = part.trim().replace(/^U\+/i, "").split("-");
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });
}

/** A unicode-range value naming exactly these code points, runs written as ranges (`U+20-7e, U+b7, …`). */
export function unicodeRangeOf(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const point of sorted) {
    const last = runs.at(-1);
    if (last && point === last[1] + 1) last[1] = point;
    else runs.push([point, point]);
  }
  const hex = (point: number) => point.toString(16);
  return runs.map(([first, last]) => (first === last ? `U+${hex(first)}` : `U+${hex(first)}-${hex(last)}`)).join(", ");
}

function textFiles(path: string, names: RegExp): string[] {
  if (!existsSync(path) || GAME_CONTENT.has(path)) return [];
  if (names.test(path)) return TEST_ONLY.test(path) ? [] : [path];
  try {
    return readdirSync(path).flatMap((name) => textFiles(join(path, name), names));
  } catch {
    return [];
  }
}

/**
 * The app's own texts: everything the built web app holds (`webDist`: index.html, the scripts and styles, i.e. the
 * pages' strings and the shared modules' ones they import) and the server's texts the pages show.
 */
export function uiText(webDist: string): string {
  const files = [
    ...textFiles(webDist, /\.(html|js|css)$/),
    ...SERVER_TEXT_SOURCES.flatMap((folder) => textFiles(folder, /\.tsx?$/)),
  ];
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

/** Printable ASCII (names, numbers) and the modern compatibility jamo the IME shows while composing (ㄱ…ㅣ). */
const ALWAYS_IN_SUBSET: [number, number][] = [
  [0x20, 0x7e],
  [0x3131, 0x3163],
];

const isControl = (point: number) => point < 0x20 || (point >= 0x7f && point < 0xa0);

/** The code points the UI subset is asked for: every character of `text` and the ones the UI always shows. */
export function uiCodePoints(text: string): Set<number> {
  const points = new Set<number>();
  for (const [first, last] of ALWAYS_IN_SUBSET) for (let point = first; point <= last; point++) points.add(point);
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (!isControl(point)) points.add(point);
  }
  return points;
}

/** Hangul syllables, compatibility jamo and ASCII: what the subset's source holds entirely and must give. */
export const mustBeInSubset = (point: number) =>
  (point >= 0xac00 && point <= 0xd7a3) || (point >= 0x3131 && point <= 0x3163) || (point >= 0x20 && point <= 0x7e);

/** The code points a font file maps (its cmap), woff2 or TrueType. */
export async function fontCodePoints(file: Uint8Array): Promise<Set<number>> {
  const truetype = await fontverter.convert(file, "truetype");
  return new Set(new Face(new Blob(truetype)).collectUnicodes());
}

export interface UiSubset {
  weight: number;
  woff2: Uint8Array;
  /** The code points it holds, ascending: the ones asked for that the font has. */
  codePoints: number[];
}

/** The package's file of this weight holding all of Hangul, the subset's source. */
export const subsetSource = (weight: number) =>
  join(PACKAGE_DIR, "files", `noto-sans-kr-korean-${weight}-normal.woff2`);

/**
 * Cuts the UI subset of one weight. Layout features are kept (HarfBuzz's default closure), hinting as the source
 * has it. Fails when a Hangul syllable, jamo or ASCII character asked for is missing: the source file is meant to
 * hold all of them, and a hole would draw that character in another face.
 */
export async function subsetForUi(weight: number, codePoints: Set<number>): Promise<UiSubset> {
  const truetype = await subsetFont(readFileSync(subsetSource(weight)), String.fromCodePoint(...codePoints), {
    targetFormat: "truetype",
  });
  const kept = new Set(new Face(new Blob(truetype)).collectUnicodes());
  const missing = [...codePoints].filter((point) => mustBeInSubset(point) && !kept.has(point));
  if (missing.length > 0) {
    throw new Error(`${PACKAGE} ${weight}: the UI subset lacks ${String.fromCodePoint(...missing.slice(0, 20))}`);
  }
  return {
    weight,
    woff2: await fontverter.convert(truetype, "woff2"),
    codePoints: [...kept].sort((a, b) => a - b),
  };
}

export interface EmittedFonts {
  /** Web path of the stylesheet, e.g. /assets/fonts-0123456789.css. */
  stylesheet: string;
  /** Web paths of the UI subsets, regular first: preloaded by every page. */
  preloads: string[];
  subsets: (UiSubset & { path: string })[];
  /** How many slice faces are declared behind the subsets. */
  slices: number;
}

/** Writes the UI subsets and the slices into `<webDist>/assets/fonts/`, then their stylesheet. */
export async function emitWebFonts(webDist: string): Promise<EmittedFonts> {
  const codePoints = uiCodePoints(uiText(webDist));
  mkdirSync(join(webDist, "assets/fonts"), { recursive: true });
  const write = (name: string, data: Uint8Array) => {
    const file = `${name}-${contentHash(data)}.woff2`;
    writeFileSync(join(webDist, "assets/fonts", file), data);
    return `/assets/fonts/${file}`;
  };
  const copied = new Map<string, string>();
  const copy = (face: FontFace) => {
    const source = join(PACKAGE_DIR, "files", face.file);
    const url = `/assets/fonts/${face.file.replace(/\.woff2$/, "")}-${contentHash(readFileSync(source))}.woff2`;
    copyFileSync(source, join(webDist, url));
    copied.set(face.file, url);
    return url;
  };
  const subsets = await Promise.all(WEIGHTS.map((weight) => subsetForUi(weight, codePoints)));
  const blocks: string[] = [];
  const emitted: EmittedFonts["subsets"] = [];
  for (const subset of subsets) {
    const faces = orderedFaces(packageFaces(subset.weight));
    const path = write(`noto-sans-kr-ui-${subset.weight}-normal`, subset.woff2);
    emitted.push({ ...subset, path });
    blocks.push(
      ...faces.map((face) => faceCss(face.weight, face.unicodeRange, copy(face))),
      `/* The UI subset (${subset.codePoints.length} characters), declared last: checked first for its characters. */`,
      faceCss(subset.weight, unicodeRangeOf(subset.codePoints), path),
    );
  }
  const css = `/* Noto Sans KR (${PACKAGE}, SIL Open Font License 1.1): slices by unicode-range, then the UI subset. */\n${blocks.join("\n")}\n`;
  const stylesheet = `/assets/fonts-${contentHash(css)}.css`;
  writeFileSync(join(webDist, stylesheet), css);
  return { stylesheet, preloads: emitted.map((subset) => subset.path), subsets: emitted, slices: copied.size };
}
