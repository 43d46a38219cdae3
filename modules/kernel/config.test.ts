import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";

const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-config-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("EXTERNAL_CHAT_URL", () => {
  test("unset or empty: no chat link", () => {
    expect(loadConfig({ DATA_DIR: dataDir }).externalChatUrl).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, EXTERNAL_CHAT_URL: " " }).externalChatUrl).toBeNull();
  });

  test("an http(s) address is kept; anything else stops the server at boot", () => {
    const room = "https://open.kakao.com/o/gTajamadang";
    expect(loadConfig({ DATA_DIR: dataDir, EXTERNAL_CHAT_URL: room }).externalChatUrl).toBe(room);
    for (const bad of ["javascript:alert(1)", "open.kakao.com/o/x", "ftp://example.com/"])
      expect(() => loadConfig({ DATA_DIR: dataDir, EXTERNAL_CHAT_URL: bad })).toThrow("EXTERNAL_CHAT_URL");
  });
});
