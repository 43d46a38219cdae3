import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
import { seedAll } from "../../apps/server/context";
import type { AppModule, ModuleContext } from "../../modules/kernel/define-module";
import { badRequest } from "../../modules/kernel/errors";

export function dbCommand(ctx: ModuleContext, modules: readonly AppModule[]) {
  const db = new Command("db").description("데이터베이스 관리");
  db.command("migrate")
    .description("모든 모듈의 마이그레이션을 적용합니다 (이미 적용된 것은 건너뜁니다)")
    .action(() => {
      // createContext has already migrated; report what is there.
      console.log(`마이그레이션 완료: ${ctx.config.databaseFile}`);
    });
  db.command("seed")
    .description("기본 데이터(방, 문장 등)를 넣습니다. 여러 번 실행해도 안전합니다")
    .action(async () => {
      await seedAll(ctx, modules);
      console.log("시드 완료");
    });
  db.command("backup")
    .description("데이터베이스를 파일로 백업합니다 (VACUUM INTO, 무결성 검사 포함)")
    .argument("<file>", "백업 파일 경로")
    .action((file: string) => {
      const target = resolve(file);
      if (existsSync(target)) throw badRequest(`이미 파일이 있습니다: ${target}`);
      ctx.sqlite.run("VACUUM INTO ?", [target]);
      const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
      const copy = new Database(target, { readonly: true });
      const result = (copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
      copy.close();
      if (result !== "ok") throw new Error(`백업 파일 무결성 검사 실패: ${result}`);
      console.log(`백업 완료: ${target} (integrity_check: ok)`);
    });
  return db;
}
