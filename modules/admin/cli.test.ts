import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { io as connect } from "socket.io-client";
import { tempConfig, testEngine } from "../../db/testing";
import { SESSION_CLOSURE_POLL_MS } from "../accounts";
import { runCli, runCliOn, startAdminServer, type TestUser } from "./test-helpers";

// The CLI runs as its own process on the running test server's data folder: what it does must show up in the
// server's API, exactly as an operator's terminal next to a live server.
let t: Awaited<ReturnType<typeof startAdminServer>>;
let admin: TestUser;
let target: TestUser;

beforeAll(async () => {
  t = await startAdminServer({ systemClock: true });
  admin = await t.user("웹관리자", { admin: true });
  target = await t.user("cliuser");
});
afterAll(() => t.server.stop());

const cli = (...args: string[]) => runCli(t.server, ...args);
const json = async (...args: string[]) => {
  const res = await cli(...args, "--json");
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
};
/** Another uid may read and write the SQLite file and its WAL in a test's own data folder. */
function chmodTree(dir: string) {
  chmodSync(dir, 0o777);
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o666);
}

const api = (method: string, path: string, body?: unknown) => t.server.api(method, path, { token: admin.token, body });

describe("madang users", () => {
  test("list: a Korean table by default, the API's shape with --json", async () => {
    const table = await cli("users", "list");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("사용자명");
    expect(table.stdout).toContain("cliuser");
    expect(table.stdout).toMatch(/전체 \d+명/);
    const body = await json("users", "list", "--search", "cliuser");
    expect(body.users.map((u: { id: number }) => u.id)).toEqual([target.id]);
    expect(body).toMatchObject({ total: 1, total_count: 1, total_pages: 1, current_page: 1, page_size: 20 });
    const inactive = await json("users", "list", "--status", "inactive");
    expect(inactive.total).toBe(0);
  });

  test("show by email or id, with the login history", async () => {
    const byEmail = await json("users", "show", target.email.toUpperCase());
    expect(byEmail.user).toMatchObject({ id: target.id, username: "cliuser" });
    expect(byEmail.login_history[0]).toHaveProperty("ip_address");
    const byId = await cli("users", "show", String(target.id));
    expect(byId.code).toBe(0);
    expect(byId.stdout).toContain(target.email);
    expect(byId.stdout).toContain("최근 로그인 기록");
  });

  test("rename with --as: the web console's log shows the operator and the reason", async () => {
    const res = await cli("users", "rename", target.email, "새cli이름", "--reason", "요청에 따라", "--as", "운영자");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("cliuser → 새cli이름");
    const user = await api("GET", `/api/admin/users/${target.id}`);
    expect(user.body.username).toBe("새cli이름");
    const logs = (await api("GET", "/api/admin/logs?action=update_username")).body.logs;
    expect(logs[0]).toMatchObject({
      admin_id: null,
      admin_username: "cli:운영자",
      source: "cli",
      target_user_id: target.id,
      target_username: "새cli이름",
    });
    expect(JSON.parse(logs[0].details)).toEqual({
      old_username: "cliuser",
      new_username: "새cli이름",
      reason: "요청에 따라",
    });
  });

  test("without --as the operator is the OS user", async () => {
    const body = await json("users", "rename", String(target.id), "cliuser2");
    expect(body.username).toBe("cliuser2");
    const [entry] = (await api("GET", "/api/admin/logs")).body.logs;
    expect(entry.admin_username).toMatch(/^cli:./);
    expect(entry.admin_username).not.toBe("cli:운영자");
  });

  test("bad names exit 2, unknown users exit 1, both with Korean messages on stderr", async () => {
    const short = await cli("users", "rename", String(target.id), "x");
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("사용자명은 최소 2자 이상이어야 합니다.");
    const long = await cli("users", "rename", String(target.id), "abcdefghijklm");
    expect(long.code).toBe(2);
    expect(long.stderr).toContain("사용자명은 12자 이하여야 합니다.");
    const chars = await cli("users", "rename", String(target.id), "bad!name");
    expect(chars.code).toBe(2);
    expect(chars.stderr).toContain("한글 또는 영문, 숫자만 사용 가능합니다");
    const taken = await cli("users", "rename", String(target.id), "웹관리자");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("이미 사용 중인 아이디입니다.");
    const unknown = await cli("users", "show", "nobody@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("사용자를 찾을 수 없습니다.");
    expect((await cli("users", "deactivate", "999999")).code).toBe(1);
    expect((await api("GET", `/api/admin/users/${target.id}`)).body.username).toBe("cliuser2");
  });

  test("deactivate and activate: the server refuses and then accepts the login", async () => {
    // A live socket of that user, held by the server process: the CLI cannot reach it, the server's poll does.
    const live = connect(t.server.url, {
      path: "/socket.io/",
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
      auth: { token: (await t.login(target.email)).body.access_token },
    });
    await new Promise<void>((resolve) => live.once("connect", () => resolve()));
    const dropped = new Promise<string>((resolve) => live.once("disconnect", (reason) => resolve(reason)));
    const off = await cli("users", "deactivate", target.email, "--reason", "휴면");
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain("비활성화했습니다.");
    expect((await t.login(target.email)).status).toBe(403);
    const reason = await Promise.race([dropped, Bun.sleep(SESSION_CLOSURE_POLL_MS * 3).then(() => "still connected")]);
    expect(reason).toBe("io server disconnect");
    const on = await json("users", "activate", String(target.id));
    expect(on.is_active).toBe(true);
    expect((await t.login(target.email)).status).toBe(200);
    const actions = (await api("GET", "/api/admin/logs?page_size=5")).body.logs.map(
      (l: { action: string }) => l.action,
    );
    expect(actions.slice(0, 2)).toEqual(["activate_user", "deactivate_user"]);
  });

  test("reset-link prints a one-time link that sets a new password on the server, and is logged", async () => {
    const user = await t.user("링크받을사람");
    const printed = await cli("users", "reset-link", user.email);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain("비밀번호 재설정 링크");
    const body = await json("users", "reset-link", String(user.id));
    expect(body.user.id).toBe(user.id);
    const token = new URL(body.link).searchParams.get("token");
    expect(new URL(body.link).pathname).toBe("/password-forgot/reset");
    const reset = await t.server.api("POST", "/api/users/reset-password-with-token", {
      body: { token, new_password: "from-the-link-1", confirm_password: "from-the-link-1" },
    });
    expect(reset.status).toBe(200);
    const login = await t.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: "from-the-link-1" },
    });
    expect(login.status).toBe(200);
    const logs = (await api("GET", "/api/admin/logs?page_size=2")).body.logs;
    expect(logs.map((l: { action: string }) => l.action)).toEqual(["issue_reset_link", "issue_reset_link"]);
    expect(JSON.stringify(logs)).not.toContain(token);
  });

  test("grant-admin, revoke-admin and require-password-reset take effect on the server", async () => {
    const fresh = (await t.login(target.email)).body.access_token;
    expect((await json("users", "grant-admin", target.email)).is_admin).toBe(true);
    expect((await t.server.api("GET", "/api/admin/dashboard", { token: fresh })).status).toBe(200);
    expect((await json("users", "revoke-admin", target.email)).is_admin).toBe(false);
    expect((await t.server.api("GET", "/api/admin/dashboard", { token: fresh })).status).toBe(403);
    expect((await json("users", "require-password-reset", target.email)).password_reset_required).toBe(true);
    expect((await t.login(target.email)).body.password_reset_required).toBe(true);
    const actions = (await api("GET", "/api/admin/logs?page_size=3")).body.logs.map(
      (l: { action: string }) => l.action,
    );
    expect(actions).toEqual(["require_password_reset", "revoke_admin", "grant_admin"]);
  });

  test("bad options and arguments exit 2", async () => {
    for (const args of [
      ["users", "list", "--size", "0"],
      ["users", "list", "--page", "abc"],
      ["users", "list", "--status", "sleeping"],
      ["users", "list", "--sort", "password_hash"],
      ["users", "list", "--bogus"],
      ["users", "show"],
      ["users", "rename", "1"],
      ["users", "frobnicate"],
      ["nothing-here"],
      ["logs", "--size", "-1"],
      ["--as", "", "users", "list"],
      ["users", "deactivate", "1", "--reason", "가".repeat(501)],
    ]) {
      const res = await cli(...args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr, args.join(" ")).toContain("오류:");
    }
  });
});

describe("madang users: which user, and who acted", () => {
  test("a user argument may also be a username (case-insensitive, like their uniqueness)", async () => {
    const turtle = await t.user("거북이");
    const latin = await t.user("TurtleKim");
    const shown = await json("users", "show", "거북이");
    expect(shown.user).toMatchObject({ id: turtle.id, username: "거북이" });
    expect((await json("users", "show", "turtlekim")).user.id).toBe(latin.id);
    const off = await cli("users", "deactivate", "거북이", "--reason", "이름으로");
    expect(off.code, off.stderr).toBe(0);
    expect((await api("GET", `/api/admin/users/${turtle.id}`)).body.is_active).toBe(false);
    expect((await json("users", "activate", "거북이")).is_active).toBe(true);
    const renamed = await json("users", "rename", "TURTLEKIM", "거북이둘");
    expect(renamed).toMatchObject({ id: latin.id, username: "거북이둘" });
    const unknown = await cli("users", "show", "없는사람");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("사용자를 찾을 수 없습니다.");
  });

  // An OS user without a name (a container's uid with no passwd entry, no USER or LOGNAME) is named by its uid in
  // the log, not `cli:unknown`. Running as another uid needs root, setpriv, and a checkout that uid can reach (a
  // clone inside `mktemp -d`, mode 0700, is not).
  test.skipIf(process.getuid?.() !== 0 || !Bun.which("setpriv") || !reachableByOthers(join(import.meta.dir, "../..")))(
    "the operator of an OS user without a name is logged by uid",
    async () => {
      const config = tempConfig();
      try {
        expect((await runCliOn(config, "db", "migrate")).code).toBe(0);
        chmodTree(config.dataDir);
        const uid = 54321;
        const proc = Bun.spawn(
          ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", process.execPath, "cli/index.ts"].concat([
            "users",
            "list",
          ]),
          {
            cwd: join(import.meta.dir, "../.."),
            env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: config.dataDir, DATA_DIR: config.dataDir },
            stdout: "pipe",
            stderr: "pipe",
          },
        );
        expect(await proc.exited, await new Response(proc.stderr).text()).toBe(0);
        const logs = await runCliOn(config, "logs", "--json");
        expect(JSON.parse(logs.stdout).logs[0].admin_username).toBe(`cli:uid-${uid}`);
      } finally {
        config.cleanup();
      }
    },
  );
});

describe("madang logs and stats", () => {
  test("logs: a table, --json with the API's shape, filters", async () => {
    const table = await cli("logs");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("사용자명 변경");
    expect(table.stdout).toContain("cli:운영자");
    const body = await json("logs", "--action", "update_username", "--user", String(target.id), "--size", "1");
    expect(body).toMatchObject({ current_page: 1, page_size: 1 });
    expect(body.total_count).toBeGreaterThanOrEqual(2);
    expect(body.logs[0]).toMatchObject({ action: "update_username", target_user_id: target.id });
    const byOperator = await json("logs", "--admin", "cli:운영자");
    expect(byOperator.total_count).toBeGreaterThan(0);
    expect(byOperator.logs.every((l: { admin_username: string }) => l.admin_username === "cli:운영자")).toBe(true);
    const byAdminId = await json("logs", "--admin", String(admin.id));
    expect(byAdminId.logs.every((l: { admin_id: number }) => l.admin_id === admin.id)).toBe(true);
  });

  test("stats: the dashboard figures", async () => {
    const web = (await api("GET", "/api/admin/dashboard")).body;
    const body = await json("stats");
    expect(body.total_users).toBe(web.total_users);
    expect(body.daily).toHaveLength(30);
    const table = await cli("stats", "--daily");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("전체 사용자");
    expect(table.stdout).toContain(body.daily[29].date);
  });
});

describe("madang rooms and sentences", () => {
  test("create a room and import sentences: visible in the API and in the admin log", async () => {
    const file = join(t.server.ctx.config.dataDir, "extra.txt");
    await Bun.write(file, "명령줄에서 가져온 첫 문장입니다.\n명령줄에서 가져온 둘째 문장입니다.\n");
    const created = await json(
      "rooms",
      "create",
      "명령줄 방",
      "--theme",
      "cli-theme",
      "--max-users",
      "8",
      "--as",
      "ops",
    );
    expect(created).toMatchObject({ name: "명령줄 방", theme: "cli-theme", max_users: 8 });
    const imported = await json("sentences", "import", file, "--theme", "cli-theme", "--as", "ops");
    expect(imported).toEqual({
      database: expect.any(String),
      theme: "cli-theme",
      inserted: 2,
      duplicates: 0,
      invalid: 0,
    });
    const list = await json("rooms", "list");
    expect(list.find((r: { name: string }) => r.name === "명령줄 방")).toMatchObject({ sentences: 2 });
    const logs = (await api("GET", "/api/admin/logs?page=1&page_size=5")).body.logs;
    expect(logs.map((l: { action: string }) => l.action).slice(0, 2)).toEqual(["import_sentences", "create_room"]);
    expect(logs[0].admin_username).toBe("cli:ops");
    const table = await cli("sentences", "stats");
    expect(table.stdout).toContain("cli-theme");
  });

  test("bad input exits 2 with a Korean message", async () => {
    const noTarget = await cli("sentences", "import", "/nonexistent.json");
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain("--theme 또는 --room");
    const badSize = await cli("rooms", "create", "방", "--theme", "x", "--max-users", "abc");
    expect(badSize.code).toBe(2);
  });
});

describe("help and db", () => {
  test("--help works on every command and exits 0", async () => {
    for (const args of [
      [],
      ["users"],
      ["users", "list"],
      ["users", "show"],
      ["users", "rename"],
      ["users", "activate"],
      ["users", "deactivate"],
      ["users", "grant-admin"],
      ["users", "revoke-admin"],
      ["users", "require-password-reset"],
      ["logs"],
      ["stats"],
      ["db"],
      ["db", "backup"],
    ]) {
      const res = await cli(...args, "--help");
      expect(res.code, args.join(" ")).toBe(0);
      expect(res.stdout, args.join(" ")).toContain("사용법:");
    }
  });

  test("db migrate says which engine and database it migrated", async () => {
    const res = await cli("db", "migrate");
    expect(res.code, res.stderr).toBe(0);
    const { databaseUrl, databaseFile } = t.server.ctx.config;
    if (databaseUrl) {
      const url = new URL(databaseUrl);
      expect(res.stdout).toContain(`마이그레이션 완료: PostgreSQL ${url.hostname}:${url.port}${url.pathname}`);
    } else {
      expect(res.stdout).toContain(`마이그레이션 완료: SQLite ${databaseFile}`);
    }
  });

  // VACUUM INTO is SQLite's: this test always runs on a SQLite data folder of its own (tempConfig), whatever the
  // engine of the run; on PostgreSQL the command explains pg_dump instead (the next test).
  test("db backup (SQLite) writes a checked copy and refuses to overwrite", async () => {
    const config = tempConfig();
    try {
      // Creates the new SQLite file (only db migrate and db seed may) and writes one log row to find in the copy.
      expect((await runCliOn(config, "db", "migrate")).code).toBe(0);
      expect((await runCliOn(config, "users", "list", "--as", "백업확인")).code).toBe(0);
      const file = join(config.dataDir, "backup.sqlite");
      const res = await runCliOn(config, "db", "backup", file);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain("integrity_check: ok");
      const copy = new Database(file, { readonly: true });
      const row = copy.query("SELECT admin_username FROM admin_logs").get() as { admin_username: string };
      copy.close();
      expect(row.admin_username).toBe("cli:백업확인");
      const again = await runCliOn(config, "db", "backup", file);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("이미 파일이 있습니다");
    } finally {
      config.cleanup();
    }
  });

  test.skipIf(testEngine() !== "postgres")(
    "db backup on PostgreSQL explains pg_dump in Korean and exits 1",
    async () => {
      const file = join(t.server.ctx.config.dataDir, "backup.dump");
      const res = await cli("db", "backup", file);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("PostgreSQL 데이터베이스는 madang db backup으로 백업하지 않습니다");
      expect(res.stderr).toContain(`pg_dump -Fc -f ${file} "$DATABASE_URL"`);
      expect(existsSync(file)).toBe(false);
    },
  );
});

/** Whether another OS user may enter `dir`: every folder from the root down to it lets others search it (o+x). */
function reachableByOthers(dir: string): boolean {
  const parts = resolve(dir).split(sep).filter(Boolean);
  return parts.every((_, i) => (statSync(sep + parts.slice(0, i + 1).join(sep)).mode & 0o001) !== 0);
}
