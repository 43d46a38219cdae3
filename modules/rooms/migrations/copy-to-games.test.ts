import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createContext } from "../../../apps/server/context";
import { modules } from "../../../apps/server/modules";
import { type Db, openDatabase } from "../../../db/client";
import { users } from "../../../db/core/schema";
import { migrateAll } from "../../../db/migrate";
import { sqliteOf, tempConfig } from "../../../db/testing";
import { countGames, dailyStats, finishGame, lastRound, recordResult, resultsOfUser } from "../../games";
import type { AppModule, ModuleContext } from "../../kernel/define-module";
import { migrations } from ".";

/**
 * The data migrations 0001 (copy rooms' records into the games module) and 0002 (copy again, drop rooms' tables)
 * against a database made by the code of before them: the migrations of then (rooms without 0001, no games
 * module), rows written as rooms' own recordGame wrote them, then rooms up to 0001; at the end, rows written
 * between 0001 and 0002, and every migration of now.
 *
 * SQLite only, on both test runs (`tempConfig()` is always a SQLite file, whatever TEST_DATABASE says): these
 * migrations exist only in rooms' SQLite folder, because only SQLite databases were ever written by the code of
 * before. PostgreSQL starts from the current schema in one migration (`../migrations-pg`), with nothing to copy.
 */
const COPY = "0001_copy_results_to_games";
const DROP = "0002_results_moved_to_games";
const kst = (text: string) => Date.parse(`${text.replace(" ", "T")}+09:00`);

/** rooms with some of its migrations (the releases before this one). */
const roomsUpTo = (tags: string[], dependsOn: string[]): AppModule => ({
  ...modules.find((m) => m.name === "rooms")!,
  dependsOn,
  migrations: {
    journal: { entries: migrations.journal.entries.filter((e) => tags.includes(e.tag)) },
    sql: migrations.sql,
  },
});
/** The module list as it was before the games module: rooms with its first migration only. */
const modulesBefore: AppModule[] = modules
  .filter((m) => m.name !== "games")
  .map((m) => (m.name === "rooms" ? roomsUpTo(["0000_ambiguous_sinister_six"], ["accounts"]) : m))
  .map((m) => ({ ...m, dependsOn: m.dependsOn?.filter((name) => name !== "games") }));
/** The release with the games module and the copy, before rooms was ported onto it. */
const modulesWithCopy: AppModule[] = modules.map((m) =>
  m.name === "rooms" ? roomsUpTo(["0000_ambiguous_sinister_six", COPY], ["accounts", "games"]) : m,
);

const config = tempConfig();
let ctx: ModuleContext;
const ids = { a: 0, b: 0, d: 0 };
const guestKey = "g_0a1b2c3d4e5f";

function member(db: Db, username: string) {
  return db
    .insert(users)
    .values({ username, usernameKey: username, email: `${username}@example.com`, passwordHash: "x" })
    .returning({ id: users.id })
    .get().id;
}

type Entry = { userId: number | null; name: string; wpm: number; accuracy: number; position: number | null };

interface FinishedGame {
  sentenceId: number;
  startedAt: number;
  finishedAt: number;
  entries: Entry[];
}

const finished = (_roomId: number, sentenceId: number, start: string, end: string, entries: Entry[]): FinishedGame => ({
  sentenceId,
  startedAt: kst(start),
  finishedAt: kst(end),
  entries,
});

/**
 * A finished game written as rooms' recordGame wrote it before the port (the code is gone with its tables): one
 * `rooms_games` row and one `rooms_game_results` row per result, created at the finish; a member deleted
 * meanwhile is written without user id.
 */
function recordGame(db: Db | Database, room: { id: number; name: string }, game: FinishedGame) {
  const sqlite = "$client" in db ? (db.$client as Database) : db;
  const { id: gameId } = sqlite
    .query(
      `INSERT INTO rooms_games (room_id, room_name, sentence_id, participants, started_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(room.id, room.name, game.sentenceId, game.entries.length, game.startedAt, game.finishedAt) as { id: number };
  game.entries.forEach((e, i) => {
    const exists = e.userId !== null && sqlite.query("SELECT id FROM users WHERE id = ?").get(e.userId);
    sqlite
      .query(
        `INSERT INTO rooms_game_results (game_id, room_id, room_name, user_id, nickname, player_key, sentence_id, wpm,
           accuracy, error_count, completion_time, position, participants, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        gameId,
        room.id,
        room.name,
        exists ? e.userId : null,
        e.name,
        e.userId === null ? guestKey : `u_${e.userId}`,
        game.sentenceId,
        e.wpm,
        e.accuracy,
        Math.round(100 - e.accuracy),
        12.5 + i,
        e.position,
        game.entries.length,
        game.finishedAt,
      );
  });
}

/** Five games in two rooms around a Seoul midnight, one room renamed, one member deleted afterwards. */
function writeTodaysRecords(db: Db) {
  ids.a = member(db, "하늘");
  ids.b = member(db, "바다");
  ids.d = member(db, "떠난이");
  const { a, b, d } = ids;
  const guest = "guest_3001";
  const room1 = { id: 1, name: "초보자 방" };
  const room2 = { id: 2, name: "속담 방" };
  recordGame(
    db,
    room1,
    finished(1, 11, "2026-02-10 23:58:50", "2026-02-10 23:59:40", [
      { userId: a, name: "하늘", wpm: 300, accuracy: 98, position: 1 },
      { userId: null, name: guest, wpm: 250, accuracy: 95, position: 2 },
      { userId: b, name: "바다", wpm: 100, accuracy: 60, position: null },
    ]),
  );
  recordGame(
    db,
    room1,
    finished(1, 12, "2026-02-11 00:00:05", "2026-02-11 00:00:50", [
      { userId: a, name: "하늘", wpm: 320, accuracy: 100, position: 1 },
    ]),
  );
  // Room 2's later game is written first: rounds follow the start time, not the row order.
  recordGame(
    db,
    room2,
    finished(2, 21, "2026-02-11 11:00:00", "2026-02-11 11:00:40", [
      { userId: b, name: "바다", wpm: 200, accuracy: 97, position: 1 },
      { userId: a, name: "하늘", wpm: 180, accuracy: 90, position: 2 },
    ]),
  );
  recordGame(
    db,
    room2,
    finished(2, 22, "2026-02-11 10:00:00", "2026-02-11 10:00:30", [
      { userId: a, name: "하늘", wpm: 280, accuracy: 99, position: 1 },
      { userId: null, name: guest, wpm: 230, accuracy: 93, position: 2 },
    ]),
  );
  recordGame(
    db,
    { id: 1, name: "초보자 방 (새 이름)" },
    finished(1, 13, "2026-02-11 12:00:00", "2026-02-11 12:00:45", [
      { userId: d, name: "떠난이", wpm: 150, accuracy: 85, position: 1 },
      { userId: a, name: "하늘빛", wpm: 310, accuracy: 97, position: 2 },
    ]),
  );
  db.delete(users).where(eq(users.id, d)).run();
}

beforeAll(async () => {
  const before = openDatabase(config.databaseFile);
  migrateAll(before.db, modulesBefore);
  writeTodaysRecords(before.db);
  before.sqlite.close();
  ctx = await createContext(config, modulesWithCopy);
});
afterAll(() => {
  sqliteOf(ctx).sqlite.close();
  config.cleanup();
});

// biome-ignore lint/suspicious/noExplicitAny: raw rows of the test's own queries
const rows = (query: string): any[] => sqliteOf(ctx).sqlite.query(query).all();
const snapshot = () => ({
  games: rows("SELECT * FROM games_games ORDER BY id"),
  results: rows("SELECT * FROM games_results ORDER BY id"),
  daily: rows("SELECT * FROM games_daily_stats ORDER BY day, mode, player_key"),
});
const rerunCopy = () =>
  sqliteOf(ctx).sqlite.transaction(() => {
    for (const statement of migrations.sql[COPY].split("--> statement-breakpoint")) sqliteOf(ctx).sqlite.run(statement);
  })();

describe("migration 0001: rooms' records copied into the games module", () => {
  test("every game becomes a sentence_race game of its room, numbered by start time", () => {
    expect(
      rows(
        "SELECT mode, source_id, round, source_name, started_at, ended_at, participants FROM games_games ORDER BY source_id, round",
      ),
    ).toEqual(
      [
        ["1", 1, "초보자 방", "2026-02-10 23:58:50", "2026-02-10 23:59:40", 3],
        ["1", 2, "초보자 방", "2026-02-11 00:00:05", "2026-02-11 00:00:50", 1],
        ["1", 3, "초보자 방 (새 이름)", "2026-02-11 12:00:00", "2026-02-11 12:00:45", 2],
        ["2", 1, "속담 방", "2026-02-11 10:00:00", "2026-02-11 10:00:30", 2],
        ["2", 2, "속담 방", "2026-02-11 11:00:00", "2026-02-11 11:00:40", 2],
      ].map(([source_id, round, source_name, start, end, participants]) => ({
        mode: "sentence_race",
        source_id,
        round,
        source_name,
        started_at: kst(start as string),
        ended_at: kst(end as string),
        participants,
      })),
    );
    expect(rows("SELECT count(*) AS n FROM rooms_games")).toEqual([{ n: 5 }]);
  });

  test("no result is lost: each keeps its figures, gets its medal by the rule, and is not implausible", () => {
    const old = rows(`
      SELECT r.*, g.started_at AS game_started_at FROM rooms_game_results r JOIN rooms_games g ON g.id = r.game_id`);
    const copied = rows(`
      SELECT r.*, g.source_id, g.started_at AS game_started_at FROM games_results r JOIN games_games g ON g.id = r.game_id`);
    expect(old).toHaveLength(10);
    expect(copied).toHaveLength(10);
    for (const before of old) {
      const after = copied.filter(
        (r) =>
          r.source_id === String(before.room_id) &&
          r.game_started_at === before.game_started_at &&
          r.player_key === before.player_key,
      );
      const medal =
        before.participants >= 2 && before.position !== null && before.position <= 3
          ? ["gold", "silver", "bronze"][before.position - 1]
          : null;
      expect(after).toEqual([
        expect.objectContaining({
          user_id: before.user_id,
          nickname: before.nickname,
          wpm: before.wpm,
          accuracy: before.accuracy,
          completion_time: before.completion_time,
          position: before.position,
          error_count: before.error_count,
          item_id: before.sentence_id,
          created_at: before.created_at,
          implausible: 0,
          medal,
        }),
      ]);
    }
    // The deleted member's result stays, without a user id, under their player key.
    expect(rows(`SELECT user_id, medal FROM games_results WHERE player_key = 'u_${ids.d}'`)).toEqual([
      { user_id: null, medal: "gold" },
    ]);
  });

  test("the daily aggregates are built per Seoul day (hand-computed)", async () => {
    const day = (d: string) => dailyStats(ctx, { fromDay: d, toDay: d, mode: "sentence_race", sort: "games" });
    const figures = (list: Awaited<ReturnType<typeof day>>) =>
      list.map((r) => [
        r.playerKey,
        r.userId,
        r.nickname,
        r.games,
        r.wpmSum,
        r.accuracySum,
        r.bestWpm,
        r.goldMedals,
        r.silverMedals,
        r.bronzeMedals,
      ]);
    const { a, b, d } = ids;
    expect(figures(await day("2026-02-10"))).toEqual([
      [`u_${a}`, a, "하늘", 1, 300, 98, 300, 1, 0, 0],
      [guestKey, null, "guest_3001", 1, 250, 95, 250, 0, 1, 0],
      [`u_${b}`, b, "바다", 1, 100, 60, 100, 0, 0, 0],
    ]);
    expect(figures(await day("2026-02-11"))).toEqual([
      [`u_${a}`, a, "하늘빛", 4, 1090, 386, 320, 1, 2, 0],
      [guestKey, null, "guest_3001", 1, 230, 93, 230, 0, 1, 0],
      [`u_${b}`, b, "바다", 1, 200, 97, 200, 1, 0, 0],
      [`u_${d}`, null, "떠난이", 1, 150, 85, 150, 1, 0, 0],
    ]);
    const [latest] = await day("2026-02-11");
    expect(latest.lastPlayedAt).toBe(kst("2026-02-11 12:00:45"));
  });

  test("the games API reads the copied records: profile records, rounds, finished games", async () => {
    const records = await resultsOfUser(ctx, ids.a, 200);
    expect(records.map((r) => [r.sourceName, r.wpm, r.position, r.medal, r.mode])).toEqual([
      ["초보자 방 (새 이름)", 310, 2, "silver", "sentence_race"],
      ["속담 방", 180, 2, "silver", "sentence_race"],
      ["속담 방", 280, 1, "gold", "sentence_race"],
      ["초보자 방", 320, 1, null, "sentence_race"],
      ["초보자 방", 300, 1, "gold", "sentence_race"],
    ]);
    expect(await lastRound(ctx, "sentence_race", "1")).toBe(3);
    expect(await lastRound(ctx, "sentence_race", "2")).toBe(2);
    expect(await countGames(ctx)).toBe(5);
    expect(await countGames(ctx, { from: kst("2026-02-11 00:00:00"), to: kst("2026-02-12 00:00:00") })).toBe(4);
  });

  test("running the copy again changes nothing; rows written meanwhile by rooms are added once", () => {
    const first = snapshot();
    rerunCopy();
    expect(snapshot()).toEqual(first);

    // rooms' unported code keeps writing its own tables until the port; repeating the copy picks those rows up.
    recordGame(
      sqliteOf(ctx).db,
      { id: 2, name: "속담 방" },
      finished(2, 23, "2026-02-12 09:00:00", "2026-02-12 09:00:30", [
        { userId: ids.b, name: "바다", wpm: 210, accuracy: 96, position: 1 },
      ]),
    );
    rerunCopy();
    rerunCopy();
    const now = snapshot();
    expect(now.games).toHaveLength(6);
    expect(now.results).toHaveLength(11);
    expect(now.games.at(-1)).toMatchObject({ source_id: "2", round: 3, participants: 1 });
    expect(now.daily.filter((r) => r.day === "2026-02-12")).toEqual([
      expect.objectContaining({ player_key: `u_${ids.b}`, games: 1, wpm_sum: 210, gold_medals: 0 }),
    ]);
    expect(now.daily.filter((r) => r.day !== "2026-02-12")).toEqual(first.daily);
  });

  test("the rebuilt aggregates equal the ones the games module keeps incrementally", async () => {
    const game = {
      mode: "sentence_race" as const,
      sourceId: "9",
      sourceName: "뉴스 방",
      round: 1,
      startedAt: kst("2026-02-12 23:59:00"),
    };
    const result = (userId: number | null, key: string, name: string, wpm: number, accuracy: number, at: string) => ({
      userId,
      playerKey: key,
      nickname: name,
      wpm,
      accuracy,
      completionTime: 20,
      position: null,
      errorCount: 1,
      // Typed (as every result of before this copy was): the aggregates count verified results only.
      verified: true,
      createdAt: kst(at),
    });
    await recordResult(ctx, game, result(ids.a, `u_${ids.a}`, "하늘빛", 333, 91.25, "2026-02-12 23:59:58"));
    await recordResult(ctx, game, result(null, guestKey, "guest_3001", 99, 70.5, "2026-02-13 00:00:01"));
    await recordResult(ctx, game, {
      ...result(ids.b, `u_${ids.b}`, "바다", 1900, 100, "2026-02-13 00:00:02"),
      implausible: true,
    });
    await finishGame(ctx, game, {
      endedAt: kst("2026-02-13 00:00:30"),
      participants: 2,
      medals: [
        { playerKey: `u_${ids.a}`, medal: "gold" },
        { playerKey: guestKey, medal: "silver" },
      ],
    });
    const incremental = snapshot().daily;
    rerunCopy();
    expect(snapshot().daily).toEqual(incremental);
  });
});

describe("migration 0002: the copy once more, then rooms' tables dropped", () => {
  test("rows written between 0001 and the port are copied; rooms_games and rooms_game_results are gone", () => {
    const before = snapshot();
    recordGame(
      sqliteOf(ctx).sqlite,
      { id: 1, name: "초보자 방 (새 이름)" },
      finished(1, 14, "2026-02-13 08:00:00", "2026-02-13 08:00:40", [
        { userId: ids.a, name: "하늘빛", wpm: 305, accuracy: 99, position: 1 },
        { userId: null, name: "guest_3001", wpm: 240, accuracy: 94, position: 2 },
      ]),
    );
    expect(migrateAll(sqliteOf(ctx).db, modules)).toContain("rooms");
    const tables = rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rooms_%'").map(
      (r) => r.name,
    );
    // Private rooms' tables came later (0003); rooms' own game tables are gone.
    expect(tables.sort()).toEqual(["rooms_private", "rooms_private_removed", "rooms_rooms", "rooms_sentences"]);

    const now = snapshot();
    expect(now.games).toHaveLength(before.games.length + 1);
    expect(now.games.at(-1)).toMatchObject({
      source_id: "1",
      round: 4,
      participants: 2,
      ended_at: kst("2026-02-13 08:00:40"),
    });
    expect(now.results.slice(before.results.length)).toEqual([
      expect.objectContaining({ player_key: `u_${ids.a}`, wpm: 305, position: 1, medal: "gold", item_id: 14 }),
      expect.objectContaining({ player_key: guestKey, wpm: 240, position: 2, medal: "silver", item_id: 14 }),
    ]);
    expect(now.results.slice(0, before.results.length)).toEqual(before.results);
    // The guest had played on that day already (the test above): one game and one silver medal more.
    const guestBefore = before.daily.find((r) => r.day === "2026-02-13" && r.player_key === guestKey);
    expect(now.daily.filter((r) => r.day === "2026-02-13")).toEqual([
      expect.objectContaining({
        player_key: guestKey,
        games: guestBefore.games + 1,
        silver_medals: guestBefore.silver_medals + 1,
      }),
      expect.objectContaining({ player_key: `u_${ids.a}`, games: 1, gold_medals: 1, wpm_sum: 305 }),
    ]);
  });

  test("the migration is recorded: migrating again changes nothing", () => {
    const first = snapshot();
    migrateAll(sqliteOf(ctx).db, modules);
    expect(snapshot()).toEqual(first);
    expect(rows(`SELECT count(*) AS n FROM __migrations_rooms`)).toEqual([{ n: migrations.journal.entries.length }]);
    expect(migrations.journal.entries.map((e) => e.tag)).toContain(DROP);
  });
});
