/** Production build of the SPA into dist/web (minified, React production build, absolute asset paths). */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildServiceWorker } from "./build-sw";
import { compressAssets } from "./compress-assets";
import { firstLoadJs } from "./first-load";
import { emitWebFonts } from "./web-fonts";

const root = resolve(import.meta.dir, "..");
const distWeb = join(root, "dist/web");

/**
 * Shared chunks smaller than this (and free of top-level side effects) are folded into a chunk every page that
 * needs them loads anyway (Bun's `minChunkSize`). Without it Bun splits out a chunk for every set of pages sharing
 * a few statements: /rooms/1 loaded 20 scripts of 0.1–3 kB, and on a phone six connections make each one a round
 * trip (bench/README.md "Session 12").
 */
export const MIN_CHUNK_BYTES = 4_096;

/** Builds the app into `outdir` (dist/web, which the server serves, unless told otherwise). */
export async function buildWeb(outdir = distWeb) {
  rmSync(outdir, { recursive: true, force: true });
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [join(root, "web/index.html")],
    outdir,
    minify: true,
    splitting: true,
    minChunkSize: MIN_CHUNK_BYTES,
    sourcemap: "none",
    // Deep links like /rooms/1 must load /assets/x.js, not ./x.js relative to the route.
    publicPath: "/",
    naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    env: "disable",
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("web build failed");
  }
  checkStylesLinked(
    outdir,
    result.outputs.map((output) => output.path),
  );
  await writeHead(outdir);
  // Files browsers ask for by a fixed name (`/favicon.ico`, whatever the page links) are served from the root as
  // they are; the page's own links go through the bundler (hashed under assets/).
  cpSync(join(root, "web/public"), outdir, { recursive: true });
  const worker = await buildServiceWorker(outdir);
  console.log(`web build: service worker ${worker.version} keeps ${worker.files} files for offline use`);
  const compressed = await compressAssets(outdir);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const total = compressed.reduce((sum, file) => sum + file.bytes, 0);
  const brTotal = compressed.reduce((sum, file) => sum + (file.br ?? file.bytes), 0);
  console.log(
    `web build: ${compressed.length} files, ${kib(total)} (${kib(brTotal)} as served with brotli) in ${(performance.now() - started).toFixed(0)} ms`,
  );
  printFirstLoad(outdir);
  return result;
}

/** Every `<link rel="stylesheet">` Bun wrote into index.html (the app's CSS). */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*?href="([^"]+)"[^>]*>/g;

/**
 * Bun writes the CSS that a lazily imported chunk imports into a file of its own that nothing loads: the page would
 * show unstyled. Styles are imported by the route files (web/src/routes), which load with the shell.
 */
function checkStylesLinked(outdir: string, outputs: string[]) {
  const html = readFileSync(join(outdir, "index.html"), "utf8");
  const linked = new Set([...html.matchAll(STYLESHEET_LINK)].map((match) => match[1]));
  const unlinked = outputs.filter((path) => path.endsWith(".css") && !linked.has(`/${relative(outdir, path)}`));
  if (unlinked.length > 0) {
    throw new Error(
      `web build: CSS not linked from index.html (imported by a lazily loaded page? import it in web/src/routes): ${unlinked.map((path) => relative(outdir, path)).join(", ")}`,
    );
  }
}

/** web/src/styles/first-paint.css without comments and line breaks, for a `<style>` in index.html. */
export function firstPaintCss(): string {
  return readFileSync(join(root, "web/src/styles/first-paint.css"), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s*\n\s*/g, "")
    .replace(/\s*([{};,>])\s*/g, "$1")
    .replace(/:\s+/g, ":");
}

/**
 * index.html's head for a fast first paint (web/README.md "Build and serving"): the first-paint CSS inline, so the
 * splash is drawn as soon as the HTML arrives; no stylesheet link that would hold that paint. The Korean font's
 * faces (scripts/web-fonts.ts: the UI subset of each weight, the unicode-range slices behind it) and the app's CSS
 * are named in `<meta name="deferred-styles">` and the UI subsets in `<meta name="deferred-fonts">`: the entry
 * script links and preloads them as it starts (web/src/lib/deferred-styles.ts), and shows no page before the
 * stylesheets are applied. Run after Bun.build: the subsets hold the characters of the built bundle.
 */
async function writeHead(outdir: string) {
  const started = performance.now();
  const fonts = await emitWebFonts(outdir);
  const indexFile = join(outdir, "index.html");
  let html = readFileSync(indexFile, "utf8");
  const appStyles = [...html.matchAll(STYLESHEET_LINK)].map((match) => match[1]);
  html = html.replace(STYLESHEET_LINK, "");
  const head =
    `<style>${firstPaintCss()}</style>` +
    `<meta name="deferred-styles" content="${[fonts.stylesheet, ...appStyles].join(" ")}">` +
    `<meta name="deferred-fonts" content="${fonts.preloads.join(" ")}">`;
  const at = html.indexOf("</head>");
  writeFileSync(indexFile, html.slice(0, at) + head + html.slice(at));
  const [regular] = fonts.subsets;
  const syllables = regular.codePoints.filter((point) => point >= 0xac00 && point <= 0xd7a3).length;
  const sizes = fonts.subsets.map((subset) => `${subset.weight} ${(subset.woff2.byteLength / 1000).toFixed(1)} kB`);
  console.log(
    `web build: Noto Sans KR UI subset of ${regular.codePoints.length} characters (${syllables} Hangul syllables), preloaded: ${sizes.join(", ")} (cut in ${(performance.now() - started).toFixed(0)} ms); ${fonts.slices} unicode-range slices for other text`,
  );
}

/** Issue 15's budget for the home page's first-load JavaScript, gzip (web/build.test.ts holds the build to it). */
export const HOME_FIRST_LOAD_BUDGET = 120_000;

/** The home page's first-load JavaScript (shell + its route chunk), against the budget. */
function printFirstLoad(outdir: string) {
  const home = firstLoadJs(outdir, "home-page");
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const verdict = home.gzipBytes <= HOME_FIRST_LOAD_BUDGET ? "within" : "OVER";
  console.log(
    `home page first-load JavaScript: ${kB(home.gzipBytes)} gzip, ${verdict} the ${kB(HOME_FIRST_LOAD_BUDGET)} budget (${kB(home.brotliBytes)} brotli as served, ${kB(home.bytes)} minified) in ${home.files.length} files: ${home.files.join(", ")}`,
  );
}

if (import.meta.main) await buildWeb();
