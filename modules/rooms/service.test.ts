import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestContext } from "../../db/testing";
import type { ModuleContext } from "../kernel/define-module";
import { isAppError } from "../kernel/errors";
import { createRoom, importSentences, listRooms, sentenceCounts } from ".";
import { readSentenceFile } from "./sentence-file";
import { listRoomRows, loadSentencePool, readCorpusFile, SEED_ROOMS, seedRoomsAndSentences } from "./service";

let ctx: ModuleContext;
let cleanup: () => Promise<void>;
let folder: string;

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext());
  folder = mkdtempSync(join(tmpdir(), "rooms-corpus-"));
});
afterAll(async () => {
  await cleanup();
  rmSync(folder, { recursive: true, force: true });
});

const errorOf = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    if (isAppError(error)) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("expected an AppError");
};

describe("seed", () => {
  test("six public rooms and the corpus files; running it again changes nothing", async () => {
    writeFileSync(
      join(folder, "beginner.json"),
      JSON.stringify(["하나 둘 셋", "하나 둘 셋", "  하나   둘 셋 ", "가", 7]),
    );
    writeFileSync(join(folder, "english.json"), JSON.stringify(["The quick brown fox.", "Hello there."]));
    writeFileSync(join(folder, "news.json"), "{ not json");
    const first = await seedRoomsAndSentences(ctx.database, folder);
    expect(first.find((c) => c.theme === "beginner")).toEqual({
      theme: "beginner",
      inserted: 1, // whitespace is collapsed, so all three spellings are one sentence
      duplicates: 2,
      invalid: 2, // too short, not a string
    });
    expect(first.find((c) => c.theme === "english")?.inserted).toBe(2);
    expect(first.find((c) => c.theme === "news")?.inserted).toBe(0); // broken file: nothing, no crash

    const second = await seedRoomsAndSentences(ctx.database, folder);
    expect(second.reduce((sum, c) => sum + c.inserted, 0)).toBe(0);
    const names = (await listRoomRows(ctx.database)).map((r) => r.name);
    expect(names).toEqual(SEED_ROOMS.map((r) => r.name));
    expect(await sentenceCounts(ctx)).toEqual([
      { theme: "beginner", count: 1 },
      { theme: "english", count: 2 },
    ]);
  });

  test("the project's corpus seeds at least 500 sentences (when the files are in place)", async () => {
    const fresh = await createTestContext();
    try {
      const counts = await seedRoomsAndSentences(fresh.ctx.database);
      const total = counts.reduce((sum, c) => sum + c.inserted, 0);
      const files = SEED_ROOMS.reduce((sum, r) => sum + readCorpusFile(r.theme).length, 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(files);
      if (files >= 500) expect(total).toBeGreaterThanOrEqual(500);
      expect((await loadSentencePool(fresh.ctx.database, "english")).length).toBeGreaterThan(0);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe("rooms and sentences", () => {
  test("createRoom validates and refuses a duplicate name", async () => {
    const room = await createRoom(ctx, { name: " 새 방 ", theme: "beginner", maxUsers: 4, description: "설명" });
    expect(room).toMatchObject({ name: "새 방", maxUsers: 4, theme: "beginner", language: "ko" });
    expect(await errorOf(() => createRoom(ctx, { name: "새 방", theme: "beginner" }))).toEqual({
      status: 409,
      detail: "이미 같은 이름의 방이 있습니다.",
    });
    expect((await errorOf(() => createRoom(ctx, { name: "", theme: "beginner" }))).status).toBe(400);
    expect((await errorOf(() => createRoom(ctx, { name: "큰 방", theme: "beginner", maxUsers: 1000 }))).status).toBe(
      400,
    );
    expect((await errorOf(() => createRoom(ctx, { name: "이상한 방", theme: "한글주제" }))).status).toBe(400);
    expect((await listRooms(ctx)).find((r) => r.id === room.id)).toMatchObject({
      user_count: 0,
      game_status: "waiting",
    });
  });

  test("two rooms of one name created at the same time: one is created, the other refused (409)", async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, () => createRoom(ctx, { name: "동시에 만든 방", theme: "beginner" })),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    const refused = attempts.flatMap((a) => (a.status === "rejected" ? [a.reason] : []));
    expect(refused.map((e) => (isAppError(e) ? [e.status, e.detail] : String(e)))).toEqual(
      Array.from({ length: 3 }, () => [409, "이미 같은 이름의 방이 있습니다."]),
    );
    expect((await listRoomRows(ctx.database)).filter((r) => r.name === "동시에 만든 방")).toHaveLength(1);
  });

  test("importSentences by theme or by room id, idempotent, with counts", async () => {
    const room = await createRoom(ctx, { name: "가져오기 방", theme: "imported" });
    const texts = ["첫 번째 문장입니다.", "두 번째 문장입니다.", "첫 번째 문장입니다.", "x".repeat(151), null];
    expect(await importSentences(ctx, room.id, texts)).toEqual({
      theme: "imported",
      inserted: 2,
      duplicates: 1,
      invalid: 2,
    });
    expect(await importSentences(ctx, "imported", texts)).toMatchObject({ inserted: 0, duplicates: 3 });
    expect((await importSentences(ctx, String(room.id), ["세 번째 문장입니다."])).inserted).toBe(1);
    expect((await loadSentencePool(ctx.database, "imported")).map((s) => s.text)).toEqual([
      "첫 번째 문장입니다.",
      "두 번째 문장입니다.",
      "세 번째 문장입니다.",
    ]);
    expect((await errorOf(() => importSentences(ctx, 987_654, ["문장"]))).detail).toBe("방을 찾을 수 없습니다.");
  });

  test("sentence counts per theme come in code point order on both engines", async () => {
    await importSentences(ctx, "zeta", ["제타 주제의 문장입니다."]);
    await importSentences(ctx, "a_b", ["밑줄 주제의 문장입니다."]);
    await importSentences(ctx, "a-b", ["붙임표 주제의 문장입니다."]);
    const themes = (await sentenceCounts(ctx)).map((c) => c.theme);
    expect(themes).toEqual([...themes].sort());
    expect(themes.indexOf("a-b")).toBeLessThan(themes.indexOf("a_b"));
  });

  test("sentence files: JSON arrays and one-sentence-per-line text", async () => {
    const json = join(folder, "more.json");
    const text = join(folder, "more.txt");
    writeFileSync(json, JSON.stringify(["제이슨에서 온 문장.", "또 하나의 문장."]));
    writeFileSync(text, "텍스트 첫 줄입니다.\n\n텍스트 둘째 줄입니다.\r\n");
    expect(readSentenceFile(json)).toHaveLength(2);
    expect(readSentenceFile(text)).toEqual(["텍스트 첫 줄입니다.", "텍스트 둘째 줄입니다."]);
    writeFileSync(join(folder, "object.json"), JSON.stringify({ a: 1 }));
    expect((await errorOf(async () => readSentenceFile(join(folder, "object.json")))).detail).toBe(
      "유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.",
    );
  });
});
