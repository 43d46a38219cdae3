import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { users } from "../../db/core/schema";
import { createTestContext } from "../../db/testing";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { isAppError } from "../kernel/errors";
import { seoulDayStart } from "../kernel/seoul-time";
import { countGames, createRoom, importSentences, listRooms, roomsStats } from ".";
import { computeRewards } from "./rewards";
import { gameResults, games, rooms, sentences } from "./schema";
import { readSentenceFile } from "./sentence-file";
import type { FinishedGame, StandingEntry } from "./sentence-race";
import {
  loadSentencePool,
  readCorpusFile,
  recordGame,
  SEED_ROOMS,
  seedRoomsAndSentences,
  userResults,
} from "./service";

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

describe("results", () => {
  const standing = (over: Partial<StandingEntry>): StandingEntry => ({
    playerId: "p",
    sessionId: "g_000000000000",
    userId: null,
    name: "guest_1234",
    sentenceId: 1,
    wpm: 300,
    accuracy: 100,
    errorCount: 0,
    completionTime: 10,
    position: 1,
    submittedAt: 0,
    rewards: null,
    winStreak: 1,
    ...over,
  });

  test("recordGame writes the game, every result and the rewards in one transaction", async () => {
    const { service } = accountsApi(ctx);
    const user = await service.register({ username: "기록왕", email: "record@example.com", password: "good-pass-42" });
    const rewards = computeRewards({ wpm: 250, accuracy: 96, position: 2, participants: 3 });
    const at = Date.UTC(2026, 2, 1, 12);
    const game: FinishedGame = {
      roomId: 1,
      sentence: { id: 1, text: "하나 둘 셋" },
      startedAt: at - 20_000,
      finishedAt: at,
      participants: 3,
      standings: [
        standing({ playerId: "g:x", position: 1 }),
        standing({
          playerId: `u:${user.id}`,
          userId: user.id,
          name: "기록왕",
          wpm: 250,
          accuracy: 96,
          position: 2,
          rewards,
        }),
        // Deleted meanwhile: the result stays, without a user.
        standing({ playerId: "u:99999", userId: 99_999, name: "사라진사람", position: null, rewards }),
      ],
    };
    const recorded = recordGame(ctx.db, { id: 1, name: "초보자 방" }, game);
    expect(recorded.figures.get(user.id)).toMatchObject({ coins: 20, silver_medals: 1, games_played: 1 });
    const row = ctx.db.select().from(users).where(eq(users.id, user.id)).get()!;
    expect(row).toMatchObject({ coins: 20, silverMedals: 1, points: rewards.points, gamesPlayed: 1 });
    const stored = ctx.db.select().from(gameResults).where(eq(gameResults.gameId, recorded.gameId)).all();
    expect(stored.map((r) => [r.nickname, r.userId, r.position, r.roomName])).toEqual([
      ["guest_1234", null, 1, "초보자 방"],
      ["기록왕", user.id, 2, "초보자 방"],
      ["사라진사람", null, null, "초보자 방"],
    ]);
    expect(userResults(ctx.db, user.id, 200)).toEqual([
      expect.objectContaining({ roomName: "초보자 방", wpm: 250, accuracy: 96, completionTime: 10, position: 2 }),
    ]);
  });

  test("roomsStats counts games in total and today in Asia/Seoul", () => {
    // 2026-03-02 00:30 in Seoul is 2026-03-01 15:30 UTC; the Seoul day began at 15:00 UTC.
    const now = Date.UTC(2026, 2, 1, 15, 30);
    expect(seoulDayStart(now)).toBe(Date.UTC(2026, 2, 1, 15, 0));
    const base = ctx.db.select().from(games).all().length;
    const insert = (finishedAt: number) =>
      ctx.db
        .insert(games)
        .values({
          roomId: 1,
          roomName: "초보자 방",
          participants: 1,
          startedAt: new Date(finishedAt - 10_000),
          finishedAt: new Date(finishedAt),
        })
        .run();
    insert(Date.UTC(2026, 2, 1, 14, 59)); // 23:59 the day before, in Seoul
    insert(Date.UTC(2026, 2, 1, 15, 0));
    insert(Date.UTC(2026, 2, 1, 15, 29));
    const stats = roomsStats({ ...ctx, clock: { ...ctx.clock, now: () => now } });
    expect(stats.total_games_played).toBe(base + 3);
    expect(stats.games_played_today).toBe(2);
    const seoulDay = { from: Date.UTC(2026, 2, 1, 15, 0), to: Date.UTC(2026, 2, 2, 15, 0) };
    expect(countGames(ctx, seoulDay)).toBe(2);
    expect(countGames(ctx)).toBe(base + 3);
  });
});
