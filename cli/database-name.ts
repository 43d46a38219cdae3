import { existsSync } from "node:fs";
import type { Config } from "../modules/kernel/config";
import { AppError } from "../modules/kernel/errors";

/** Commands that may bring a database into being; every other command works on an existing one. */
const CREATING = new Set(["db migrate", "db seed"]);
const OPTIONS_WITH_VALUE = new Set(["--as"]);

/** The command words of argv (`users list`), options and their values left out. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  return words;
}

const wantsHelp = (argv: readonly string[], words: string[]) =>
  words.length === 0 || words[0] === "help" || argv.some((a) => a === "-h" || a === "--help");

/** How the operator recognises the database: the SQLite file's path, or PostgreSQL's host and name (no password). */
export function databaseName(config: Pick<Config, "databaseUrl" | "databaseFile">): string {
  if (!config.databaseUrl) return `SQLite ${config.databaseFile}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
}

/**
 * A mistyped DATA_DIR (or a command run from the wrong folder) would otherwise create an empty database and answer
 * "no users" as if all were well: only `db migrate` and `db seed` may create the SQLite file. Help is shown without
 * one: the answer is true when the file is missing and only help was asked for (the caller must not open the file).
 */
export function refuseMissingDatabase(
  config: Pick<Config, "databaseUrl" | "databaseFile" | "dataDir">,
  argv: string[],
): boolean {
  if (config.databaseUrl || existsSync(config.databaseFile)) return false;
  const words = commandWords(argv);
  if (CREATING.has(words.slice(0, 2).join(" "))) return false;
  if (wantsHelp(argv, words)) return true;
  throw new AppError(
    404,
    `데이터베이스 파일이 없습니다: ${config.databaseFile} (DATA_DIR=${config.dataDir}). ` +
      "DATA_DIR이 맞는지 확인하거나, 새로 만들려면 먼저 'madang db migrate'를 실행하세요.",
  );
}

/**
 * `--json` answers carry the database they came from: an object printed whole gets a `database` field first
 * (arrays and other output are left as they are). Works on what the commands print, so no command changes.
 */
export function withDatabaseField(name: string, print: (...data: unknown[]) => void) {
  return (...data: unknown[]) => {
    const [text] = data;
    if (data.length === 1 && typeof text === "string" && text.startsWith("{")) {
      try {
        const value = JSON.parse(text);
        if (value && typeof value === "object" && !Array.isArray(value))
          return print(JSON.stringify({ database: name, ...value }, null, 2));
      } catch {}
    }
    print(...data);
  };
}
