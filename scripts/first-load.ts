/**
 * What a first visit of one page downloads in JavaScript, read from the built files themselves: the module
 * scripts index.html names, every chunk they import statically, and the page's lazy route chunk (the dynamic
 * `import("/assets/<name>-<hash>.js")` whose file starts with the page component's module name) with its own
 * static imports. Sizes are of the gzip and brotli copies the build wrote (or of the file when it has none).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

export interface FirstLoad {
  /** Chunk file names, entry first. */
  files: string[];
  bytes: number;
  gzipBytes: number;
  /** What a browser that accepts brotli receives (the server's choice). */
  brotliBytes: number;
}

const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]*from\s*)?"(\/assets\/[^"]+\.js)"/g;
const DYNAMIC_IMPORT = /import\("(\/assets\/[^"]+\.js)"\)/g;

const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1]);

function entryScripts(webDist: string): string[] {
  const html = readFileSync(join(webDist, "index.html"), "utf8");
  return matches(html, /<script[^>]*type="module"[^>]*src="(\/assets\/[^"]+\.js)"/g);
}

/** `files` plus every chunk they import statically, transitively (web paths like /assets/x.js). */
function withStaticImports(webDist: string, files: string[]): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const next of matches(readFileSync(join(webDist, path), "utf8"), STATIC_IMPORT)) visit(next);
  };
  for (const file of files) visit(file);
  return [...seen];
}

/** The lazy chunks the loaded code can import whose file is the module `pageModule` (e.g. "home-page"). */
function lazyChunksOf(webDist: string, loaded: string[], pageModule: string): string[] {
  const dynamic = loaded.flatMap((path) => matches(readFileSync(join(webDist, path), "utf8"), DYNAMIC_IMPORT));
  const pattern = new RegExp(`^${pageModule}-[a-z0-9]+\\.js$`);
  return [...new Set(dynamic)].filter((path) => pattern.test(basename(path)));
}

/** Size of the copy with `suffix` the build wrote, or of the file itself when it has none. */
const copySize = (file: string, suffix: ".gz" | ".br") =>
  statSync(existsSync(file + suffix) ? file + suffix : file).size;

/** The JavaScript a first visit of the page whose route component lives in `pageModule` downloads. */
export function firstLoadJs(webDist: string, pageModule: string): FirstLoad {
  const shell = withStaticImports(webDist, entryScripts(webDist));
  const page = lazyChunksOf(webDist, shell, pageModule);
  if (page.length === 0) throw new Error(`no lazy chunk for ${pageModule} in ${webDist}`);
  const files = withStaticImports(webDist, [...shell, ...page]);
  return {
    files: files.map((path) => basename(path)),
    bytes: files.reduce((sum, path) => sum + statSync(join(webDist, path)).size, 0),
    gzipBytes: files.reduce((sum, path) => sum + copySize(join(webDist, path), ".gz"), 0),
    brotliBytes: files.reduce((sum, path) => sum + copySize(join(webDist, path), ".br"), 0),
  };
}
