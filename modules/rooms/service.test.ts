import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestContext } from "../../db/testing";
import type { ModuleContext } from "../kernel/define-module";
import { isAppError } from "../kernel/errors";
import { createRoom, importSentences, listRooms } from ".";
import { rooms, sentences } from "./schema";
import { readSentenceFile } from "./sentence-file";
import { loadSentencePool, readCorpusFile, SEED_ROOMS, seedRoomsAndSentences } from "./service";

let ctx: ModuleContext;
let cleanup: () => void;
let folder: string;

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext());
  folder = mkdtempSync(join(tmpdir(), "rooms-corpus-"));
});
afterAll(() => {
  cleanup();
  rmSync(folder, { recursive: true, force: true });
});

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("expected an AppError");
};

describe("seed", () => {
  test("six public rooms and the corpus files; running it again changes nothing", () => {
    writeFileSync(
      join(folder, "beginner.json"),
      JSON.stringify(["하나 둘 셋", "하나 둘 셋", "  하나   둘 셋 ", "가", 7]),
    );
    writeFileSync(join(folder, "english.json"), JSON.stringify(["The quick brown fox.", "Hello there."]));
    writeFileSync(join(folder, "news.json"), "{ not json");
    const first = seedRoomsAndSentences(ctx.db, folder);
    expect(first.find((c) => c.theme === "beginner")).toEqual({
      theme: "beginner",
      inserted: 1, // whitespace is collapsed, so all three spellings are one sentence
      duplicates: 2,
      invalid: 2, // too short, not a string
    });
    expect(first.find((c) => c.theme === "english")?.inserted).toBe(2);
    expect(first.find((c) => c.theme === "news")?.inserted).toBe(0); // broken file: nothing, no crash

    const second = seedRoomsAndSentences(ctx.db, folder);
    expect(second.reduce((sum, c) => sum + c.inserted, 0)).toBe(0);
    const names = ctx.db.select({ name: rooms.name }).from(rooms).orderBy(rooms.id).all();
    expect(names.map((r) => r.name)).toEqual(SEED_ROOMS.map((r) => r.name));
    expect(ctx.db.select().from(sentences).all()).toHaveLength(3);
  });

  test("the project's corpus seeds at least 500 sentences (when the files are in place)", async () => {
    const fresh = await createTestContext();
    try {
      const counts = seedRoomsAndSentences(fresh.ctx.db);
      const total = counts.reduce((sum, c) => sum + c.inserted, 0);
      const files = SEED_ROOMS.reduce((sum, r) => sum + readCorpusFile(r.theme).length, 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(files);
      if (files >= 500) expect(total).toBeGreaterThanOrEqual(500);
      expect(loadSentencePool(fresh.ctx.db, "english").length).toBeGreaterThan(0);
    } finally {
      fresh.cleanup();
    }
  });
});

describe("rooms and sentences", () => {
  test("createRoom validates and refuses a duplicate name", () => {
    const room = createRoom(ctx, { name: " 새 방 ", theme: "beginner", maxUsers: 4, description: "설명" });
    expect(room).toMatchObject({ name: "새 방", maxUsers: 4, theme: "beginner", language: "ko" });
    expect(errorOf(() => createRoom(ctx, { name: "새 방", theme: "beginner" }))).toEqual({
      status: 409,
      detail: "이미 같은 이름의 방이 있습니다.",
    });
    expect(errorOf(() => createRoom(ctx, { name: "", theme: "beginner" })).status).toBe(400);
    expect(errorOf(() => createRoom(ctx, { name: "큰 방", theme: "beginner", maxUsers: 1000 })).status).toBe(400);
    expect(errorOf(() => createRoom(ctx, { name: "이상한 방", theme: "한글주제" })).status).toBe(400);
    expect(listRooms(ctx).find((r) => r.id === room.id)).toMatchObject({ user_count: 0, game_status: "waiting" });
  });

  test("importSentences by theme or by room id, idempotent, with counts", () => {
    const room = createRoom(ctx, { name: "가져오기 방", theme: "imported" });
    const texts = ["첫 번째 문장입니다.", "두 번째 문장입니다.", "첫 번째 문장입니다.", "x".repeat(151), null];
    expect(importSentences(ctx, room.id, texts)).toEqual({ theme: "imported", inserted: 2, duplicates: 1, invalid: 2 });
    expect(importSentences(ctx, "imported", texts)).toMatchObject({ inserted: 0, duplicates: 3 });
    expect(importSentences(ctx, String(room.id), ["세 번째 문장입니다."]).inserted).toBe(1);
    expect(loadSentencePool(ctx.db, "imported").map((s) => s.text)).toHaveLength(3);
    expect(errorOf(() => importSentences(ctx, 987_654, ["문장"])).detail).toBe("방을 찾을 수 없습니다.");
  });

  test("sentence files: JSON arrays and one-sentence-per-line text", async () => {
    const json = join(folder, "more.json");
    const text = join(folder, "more.txt");
    writeFileSync(json, JSON.stringify(["제이슨에서 온 문장.", "또 하나의 문장."]));
    writeFileSync(text, "텍스트 첫 줄입니다.\n\n텍스트 둘째 줄입니다.\r\n");
    expect(readSentenceFile(json)).toHaveLength(2);
    expect(readSentenceFile(text)).toEqual(["텍스트 첫 줄입니다.", "텍스트 둘째 줄입니다."]);
    writeFileSync(join(folder, "object.json"), JSON.stringify({ a: 1 }));
    expect(errorOf(() => readSentenceFile(join(folder, "object.json"))).detail).toBe(
      "유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.",
    );
  });
});
