/** Production build of the SPA into dist/web (minified, React production build, absolute asset paths). */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { compressAssets } from "./compress-assets";

const root = resolve(import.meta.dir, "..");
const outdir = join(root, "dist/web");

export async function buildWeb() {
  rmSync(outdir, { recursive: true, force: true });
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [join(root, "web/index.html")],
    outdir,
    minify: true,
    splitting: true,
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
  const compressed = await compressAssets(outdir);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const total = compressed.reduce((sum, file) => sum + file.bytes, 0);
  const brTotal = compressed.reduce((sum, file) => sum + (file.br ?? file.bytes), 0);
  console.log(
    `web build: ${compressed.length} files, ${kib(total)} (${kib(brTotal)} as served with brotli) in ${(performance.now() - started).toFixed(0)} ms`,
  );
  return result;
}

if (import.meta.main) await buildWeb();
