/**
 * The Korean web font, sliced: `@fontsource/noto-sans-kr` ships Noto Sans KR cut into ~125 files per weight (120
 * numbered Korean slices of about 8–20 KB, each with its `unicode-range`, plus latin, latin-ext, cyrillic and
 * vietnamese), so a browser downloads only the slices holding the characters a page shows instead of two 0.55 MB
 * files. The web build (`emitWebFonts`) writes, from the package's 400.css and 700.css:
 *
 * - `assets/fonts/<slice>-<hash>.woff2`: the woff2 files (the .woff fallbacks serve no browser we support);
 * - `assets/fonts-<hash>.css`: one `@font-face` per slice and weight, `font-display: swap`, with the non-Korean
 *   subsets first so where ranges overlap (ASCII is in the latin face and in Korean slice 119) the Korean slice,
 *   declared later, wins and a Korean page needs no latin file at all;
 * - in index.html, that stylesheet and a `<link rel="preload">` of the regular-weight slice holding most of the
 *   Hangul syllables written in the web app's texts and in the rooms' sentences (counted with repeats): the one
 *   every page needs first.
 *
 * Bun's bundler is not used for this: it inlines every CSS `url()` under 128 KB as a data: URI (Bun 1.4.5, no
 * option to turn that off), which would put all 250 slices into the stylesheet.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const PACKAGE = "@fontsource/noto-sans-kr";
const PACKAGE_DIR = join(ROOT, "node_modules", PACKAGE);
const WEIGHTS = [400, 700] as const;
/** Where the texts that decide the first slice live: the app's own strings and the sentence corpus. */
const TEXT_SOURCES = [join(ROOT, "web/index.html"), join(ROOT, "web/src"), join(ROOT, "modules/rooms/data/sentences")];

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

function faceCss(face: FontFace, url: string): string {
  return [
    "@font-face {",
    '  font-family: "Noto Sans KR";',
    "  font-style: normal;",
    "  font-display: swap;",
    `  font-weight: ${face.weight};`,
    `  src: url("${url}") format("woff2");`,
    `  unicode-range: ${face.unicodeRange};`,
    "}",
  ].join("\n");
}

const contentHash = (data: string | Buffer) => createHash("sha256").update(data).digest("hex").slice(0, 10);

export interface EmittedFonts {
  /** Web path of the stylesheet, e.g. /assets/fonts-0123456789.css. */
  stylesheet: string;
  /** Web path of the preloaded slice. */
  preload: string;
  preloaded: PreloadChoice;
  faces: number;
}

/** Copies the woff2 slices into `<webDist>/assets/fonts/`, writes their stylesheet and returns both web paths. */
export function emitWebFonts(webDist: string): EmittedFonts {
  mkdirSync(join(webDist, "assets/fonts"), { recursive: true });
  const urls = new Map<string, string>();
  const faces = WEIGHTS.flatMap((weight) => orderedFaces(packageFaces(weight)));
  for (const face of faces) {
    const source = join(PACKAGE_DIR, "files", face.file);
    const name = `${face.file.replace(/\.woff2$/, "")}-${contentHash(readFileSync(source))}.woff2`;
    copyFileSync(source, join(webDist, "assets/fonts", name));
    urls.set(face.file, `/assets/fonts/${name}`);
  }
  const css = `/* Noto Sans KR (${PACKAGE}, SIL Open Font License 1.1), sliced by unicode-range. */\n${faces
    .map((face) => faceCss(face, urls.get(face.file)!))
    .join("\n")}\n`;
  const stylesheet = `/assets/fonts-${contentHash(css)}.css`;
  writeFileSync(join(webDist, stylesheet), css);
  const preloaded = slicePreloaded();
  return { stylesheet, preload: urls.get(preloaded.face.file)!, preloaded, faces: faces.length };
}

/** The code points a unicode-range value covers, as [first, last] pairs. */
export function parseUnicodeRange(value: string): [number, number][] {
  return value.split(",").map((part) => {
    const [first, last = first] = part.trim().replace(/^U\+/i, "").split("-");
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });
}

function textFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (/\.(html|json|tsx?)$/.test(path)) return path.includes(".test.") ? [] : [path];
  try {
    return readdirSync(path).flatMap((name) => textFiles(join(path, name)));
  } catch {
    return [];
  }
}

const isHangulSyllable = (codePoint: number) => codePoint >= 0xac00 && codePoint <= 0xd7a3;

/** How many Hangul syllables of `text` each face covers (the Korean slices do not overlap on syllables). */
export function syllablesPerFace(text: string, faces: FontFace[]): Map<FontFace, number> {
  const ranges = faces.map((face) => ({ face, ranges: parseUnicodeRange(face.unicodeRange) }));
  const counts = new Map<FontFace, number>();
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (!isHangulSyllable(codePoint)) continue;
    const owner = ranges.find(({ ranges }) => ranges.some(([first, last]) => codePoint >= first && codePoint <= last));
    if (owner) counts.set(owner.face, (counts.get(owner.face) ?? 0) + 1);
  }
  return counts;
}

export interface PreloadChoice {
  face: FontFace;
  /** Share of the counted syllables this slice holds (0–1). */
  share: number;
}

/** The regular-weight slice holding the most syllables of the app's texts and sentences. */
export function slicePreloaded(): PreloadChoice {
  const text = TEXT_SOURCES.flatMap(textFiles)
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const counts = syllablesPerFace(text, packageFaces(400).filter(isKoreanSlice));
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const [face, count] = [...counts].sort((a, b) => b[1] - a[1])[0];
  return { face, share: count / total };
}
