import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../kernel/logger";
import { outboxMailer } from "./reset-mail";

const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-outbox-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every line the mailer logs, as the JSON logger would write it. */
function recordingLogger(lines: string[]): Logger {
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, msg, ...fields }));
  };
  const logger: Logger = {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: () => logger,
  };
  return logger;
}

test("without SMTP the link goes to the outbox file only: the log names the file, never the link or its token", async () => {
  const lines: string[] = [];
  const token = "tok_0123456789abcdefghijklmnopqrstuvwxyzABCDE";
  const link = `https://typing.example/password-forgot/reset?token=${token}`;
  await outboxMailer(dataDir, recordingLogger(lines))({ to: "player@example.com", username: "플레이어", link });

  expect(lines).toHaveLength(1);
  const logged = JSON.parse(lines[0]!) as { file: string };
  expect(lines[0]).not.toContain(token);
  expect(lines[0]).not.toContain("password-forgot/reset");
  // The operator finds the message through the path the log gives; only its owner may read it.
  expect(logged.file.startsWith(join(dataDir, "outbox"))).toBe(true);
  expect(readFileSync(logged.file, "utf8")).toContain(link);
  expect(statSync(logged.file).mode & 0o777).toBe(0o600);
});
