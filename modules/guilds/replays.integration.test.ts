import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sharedScheduler } from "../kernel/game-host";
import { type GuildServer, openGuildClient, startGuildServer } from "./test-support";

/**
 * A guild game's typed answer becomes its replay (product-rules "Live race and replays"): the steps the server
 * stamped as the member typed through the IME (each syllable built over 2–3 keystrokes) are what
 * `GET /api/replays/{key}` answers, reached from the member's records. Real sockets, fake clock, either engine.
 */
let g: GuildServer;
const PROBLEM = "하늘 천 따 지 검을 현";
/** What the answer box showed at each change, composing syllable included (두벌식: ㅎ→하→한→하느→하늘, ...). */
const TYPED = [
  ..."ㅎ 하 한 하느 하늘".split(" "),
  "하늘 ",
  ..."ㅊ 처 천".split(" ").map((s) => `하늘 ${s}`),
  "하늘 천 ",
  ..."ㄸ 따".split(" ").map((s) => `하늘 천 ${s}`),
  "하늘 천 따 ",
  ..."ㅈ 지".split(" ").map((s) => `하늘 천 따 ${s}`),
  "하늘 천 따 지 ",
  ..."ㄱ 거 검 검ㅇ 검으 검을".split(" ").map((s) => `하늘 천 따 지 ${s}`),
  "하늘 천 따 지 검을 ",
  ..."ㅎ 혀 현".split(" ").map((s) => `하늘 천 따 지 검을 ${s}`),
];
const EVERY_MS = 150;

beforeAll(async () => {
  g = await startGuildServer();
});
afterAll(() => g.server.stop());

describe("a guild game's replay", () => {
  test("the typed steps, stamped by the server, are the replay reached from the records", async () => {
    const { guild, admin } = await g.guildWithRoles("리플레이길드");
    await g.ok(200, "PUT", `/api/guilds/${guild.id}/problems`, admin.token, { problems: [PROBLEM] });
    const c = await openGuildClient(g.server, admin.token);
    try {
      c.emit("guild:join", { guild_id: guild.id });
      await c.next("guild:joined");
      await c.next("guild_game:state");
      c.emit("guild_game:start_request", { guild_id: guild.id, problem: PROBLEM });
      await c.next("guild_game:countdown");
      g.clock.advance(5_000);
      await c.next("guild_game:start");

      g.clock.advance(700); // reading the problem
      for (const text of TYPED) {
        g.clock.advance(EVERY_MS);
        c.emit("guild_game:progress", { guild_id: guild.id, typed_text: text });
        await c.sync();
      }
      c.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
      expect((await c.next("guild_game:end")).reason).toBe("all_finished");
      await sharedScheduler(g.server.ctx).drain();
    } finally {
      c.close();
    }

    const records = await g.ok(200, "GET", `/api/games/results/user/${admin.id}`, admin.token);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ mode: "guild_game", room_name: "리플레이길드" });
    expect(record.replay_key).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Anyone with the key watches it: no token.
    const replay = await g.server.api("GET", `/api/replays/${record.replay_key}`);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      key: record.replay_key,
      mode: "guild_game",
      room_name: "리플레이길드",
      sentence: PROBLEM,
      player: { name: admin.username, level: expect.any(Number) },
      result: { wpm: record.wpm, accuracy: record.accuracy, position: 1, completion_time: record.completion_time },
    });
    expect(replay.body.steps).toEqual(TYPED.map((text, i) => ({ t: 700 + (i + 1) * EVERY_MS, text })));
  });
});
