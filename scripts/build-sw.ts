/**
 * Builds the service worker (web/src/sw/service-worker.ts) into dist/web/sw.js with what it keeps for offline use
 * (web/README.md "Offline"): index.html, every file directly under assets/ (the shell, every page's chunk, the
 * stylesheets, the manifest and icons) and the fonts every page preloads (the UI subset of each weight, under
 * assets/fonts/). Other font slices are kept as pages use them. The version is a hash of that list and index.html: any change of the app makes a new worker, whose
 * cache replaces the old one.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

/** The files a built app (index.html already written) keeps offline, as URLs. */
export function precacheList(outdir: string): string[] {
  const assets = readdirSync(join(outdir, "assets"))
    .filter((name) => statSync(join(outdir, "assets", name)).isFile() && !/\.(br|gz)$/.test(name))
    .map((name) => `/assets/${name}`);
  const html = readFileSync(join(outdir, "index.html"), "utf8");
  const fonts = html.match(/<meta name="deferred-fonts" content="([^"]+)"/)?.[1].split(" ") ?? [];
  return ["/", ...assets.sort(), ...fonts];
}

/** Writes dist/web/sw.js; answers its version and how many files it keeps. */
export async function buildServiceWorker(outdir: string) {
  const precache = precacheList(outdir);
  const version = createHash("sha256")
    .update(precache.join("\n"))
    .update(readFileSync(join(outdir, "index.html")))
    .digest("hex")
    .slice(0, 12);
  const result = await Bun.build({
    entrypoints: [join(root, "web/src/sw/service-worker.ts")],
    target: "browser",
    format: "iife",
    minify: true,
    define: { SW_VERSION: JSON.stringify(version), SW_PRECACHE: JSON.stringify(precache) },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("service worker build failed");
  }
  writeFileSync(join(outdir, "sw.js"), `// 타자마당 service worker ${version}\n${await result.outputs[0]!.text()}`);
  return { version, files: precache.length };
}
