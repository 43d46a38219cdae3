/**
 * Precompressed copies of the built web app: `x.br` (brotli, quality 11) and `x.gz` (gzip, level 9) next to every
 * file of dist/web, made once at build time so the server never compresses per request (apps/server/static-web.ts
 * picks one by Accept-Encoding). A copy is kept only when it is smaller than the file by at least
 * MIN_SAVING: formats that are compressed already (woff2 fonts, images) gain nothing and are not even tried.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Already compressed inside: brotli or gzip would only add a few bytes of framing. */
const COMPRESSED_FORMATS = new Set([
  ".woff2",
  ".woff",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".avif",
  ".br",
  ".gz",
]);
/** A copy that saves less than this share of the file is not worth a second representation. */
const MIN_SAVING = 0.05;

export const ENCODED_SUFFIXES = { br: ".br", gzip: ".gz" } as const;

export interface CompressedFile {
  file: string;
  bytes: number;
  br?: number;
  gzip?: number;
}

/** Every regular file under `dir`, recursively (paths absolute). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

async function compressFile(file: string): Promise<CompressedFile> {
  const data = readFileSync(file);
  const result: CompressedFile = { file, bytes: data.length };
  if (COMPRESSED_FORMATS.has(extname(file))) return result;
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(data, { level: 9 }),
  ]);
  const worthIt = (copy: Buffer) => copy.length <= data.length * (1 - MIN_SAVING);
  if (worthIt(br)) {
    writeFileSync(file + ENCODED_SUFFIXES.br, br);
    result.br = br.length;
  }
  if (worthIt(gz)) {
    writeFileSync(file + ENCODED_SUFFIXES.gzip, gz);
    result.gzip = gz.length;
  }
  return result;
}

/** Writes the .br and .gz copies of every file under `dir` (the copies' own files are never compressed again). */
export async function compressAssets(dir: string): Promise<CompressedFile[]> {
  const files = filesUnder(dir).filter((file) => statSync(file).size > 0);
  return Promise.all(files.map(compressFile));
}
