import { Command } from "commander";
import type { ModuleContext } from "../kernel/define-module";
import { accountsApi } from "./api";

/**
 * `madang users grant-admin <email|id>`: the one account command needed before the admin module exists.
 * The admin module's CLI replaces the whole `users` group with the logged version.
 */
export function accountsCommands(ctx: ModuleContext): Command[] {
  const users = new Command("users").description("사용자 관리");
  users
    .command("grant-admin")
    .description("사용자에게 관리자 권한을 줍니다")
    .argument("<user>", "이메일 또는 사용자 ID")
    .action((ref: string) => {
      const { service } = accountsApi(ctx);
      const user = service.setAdmin(service.findByEmailOrId(ref).id, true);
      console.log(`${user.username} (${user.email}) 님은 이제 관리자입니다.`);
    });
  return [users];
}
