import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
import { seedAll } from "../../apps/server/context";
import type { SqliteDatabase } from "../../db/database";
import type { Config } from "../../modules/kernel/config";
import type { AppModule, ModuleContext } from "../../modules/kernel/define-module";
import { AppError, badRequest } from "../../modules/kernel/errors";

/** Where the data is, for the operator: the SQLite file, or the PostgreSQL server and database (never a password). */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `SQLite ${config.databaseFile}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
}

/**
 * PostgreSQL is backed up with its own tool, which copies a consistent snapshot of a running server: the form of the
 * command, with the same connection as DATABASE_URL (`-Fc`: pg_restore's compressed format).
 */
const PG_BACKUP_REFUSED = (file: string) =>
  "PostgreSQL 데이터베이스는 madang db backup으로 백업하지 않습니다 (VACUUM INTO는 SQLite 전용입니다). " +
  `PostgreSQL의 pg_dump로 백업해주세요: pg_dump -Fc -f ${file} "$DATABASE_URL"` +
  " (복원: pg_restore -d <데이터베이스 URL> <파일>)";

export function dbCommand(ctx: ModuleContext, modules: readonly AppModule[]) {
  const db = new Command("db").description("데이터베이스 관리");
  db.command("migrate")
    .description("모든 모듈의 마이그레이션을 적용합니다 (이미 적용된 것은 건너뜁니다)")
    .action(() => {
      // createContext has already migrated; report what and where.
      console.log(`마이그레이션 완료: ${describeDatabase(ctx.config)}`);
    });
  db.command("seed")
    .description("기본 데이터(방, 문장 등)를 넣습니다. 여러 번 실행해도 안전합니다")
    .action(async () => {
      await seedAll(ctx, modules);
      console.log("시드 완료");
    });
  db.command("backup")
    .description("SQLite 데이터베이스를 파일로 백업합니다 (VACUUM INTO, 무결성 검사 포함; PostgreSQL은 pg_dump)")
    .argument("<file>", "백업 파일 경로")
    .action((file: string) => {
      const target = resolve(file);
      // Refused (exit 1), not bad usage: the command is right, the engine has its own backup tool.
      if (ctx.database.dialect === "pg") throw new AppError(409, PG_BACKUP_REFUSED(target));
      if (existsSync(target)) throw badRequest(`이미 파일이 있습니다: ${target}`);
      backupSqlite(ctx.database, target);
      console.log(`백업 완료: ${target} (integrity_check: ok)`);
    });
  return db;
}

/** A consistent copy of the live file (VACUUM INTO), checked by opening it. */
function backupSqlite(database: SqliteDatabase, target: string) {
  database.sqlite.run("VACUUM INTO ?", [target]);
  const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
  const copy = new Database(target, { readonly: true });
  const result = (copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  copy.close();
  if (result !== "ok") throw new Error(`백업 파일 무결성 검사 실패: ${result}`);
}
