import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";

export type Db = ReturnType<typeof drizzle>;
/** A Drizzle transaction handle; callbacks must stay synchronous (bun:sqlite commits at the first await). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Pragmas, applied on every connection and read back (a silently ignored pragma would fail only under load):
 * - journal_mode=WAL: readers never block the single writer; the HTTP and game loop share one file.
 * - synchronous=NORMAL: with WAL this is durable across application crashes; a power cut may lose the last
 *   transactions but never corrupts the file. FULL would fsync on every commit for little gain here.
 * - foreign_keys=ON: SQLite's default is off.
 * - busy_timeout=5000: the CLI and the server may write at the same time; wait rather than fail.
 */
export const PRAGMAS = { journal_mode: "wal", synchronous: 1, foreign_keys: 1, busy_timeout: 5000 } as const;

export function openDatabase(file: string): { sqlite: Database; db: Db } {
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run(`PRAGMA busy_timeout = ${PRAGMAS.busy_timeout}`);
  assertPragmas(sqlite, file);
  return { sqlite, db: drizzle({ client: sqlite }) };
}

function assertPragmas(sqlite: Database, file: string) {
  const read = (name: string) => Object.values(sqlite.query(`PRAGMA ${name}`).get() as object)[0];
  const actual = {
    journal_mode: String(read("journal_mode")).toLowerCase(),
    synchronous: Number(read("synchronous")),
    foreign_keys: Number(read("foreign_keys")),
    busy_timeout: Number(read("busy_timeout")),
  };
  // An in-memory database cannot use WAL; accept "memory" there only.
  const walOk = actual.journal_mode === "wal" || (file === ":memory:" && actual.journal_mode === "memory");
  for (const [name, expected] of Object.entries(PRAGMAS)) {
    const value = actual[name as keyof typeof actual];
    if (name === "journal_mode" ? !walOk : value !== expected) {
      throw new Error(`SQLite pragma ${name} is ${value}, expected ${expected} (${file})`);
    }
  }
}
