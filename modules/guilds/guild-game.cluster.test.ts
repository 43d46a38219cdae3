import { beforeAll, expect, test } from "bun:test";
import { twoProcessSuite } from "../../apps/server/cluster-suite";
import {
  type ClusterProcess,
  clusterUser,
  expectStatus as ok,
  type TestCluster,
} from "../../apps/server/cluster-testing";
import { keystrokes } from "../kernel/typing";
import { type GuildClient, openGuildClient, type TestServer } from "./test-support";

// Two real server processes on one PostgreSQL and one Redis: a guild's admin on one process and a member on the
// other play one guild game (owned by one of them), and a kick made on one process takes the member's socket on
// the other out of the room at once; a member on the other process watches a game without playing. Runs in the PostgreSQL pass of `npm test`.
const suite = twoProcessSuite<GuildClient>();
const { onPostgres, clients } = suite;
const PROBLEM = "가는 말이 고와야 오는 말이 곱다";

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  cluster = suite.cluster;
  [a, b] = suite.processes;
});

async function inRoom(process: ClusterProcess, token: string, guildId: number, spectate = false) {
  const client = await openGuildClient(process as unknown as TestServer, token);
  clients.push(client);
  client.emit("guild:join", { guild_id: guildId, spectate });
  await client.next("guild:joined", () => true, 10_000);
  return client;
}

/**
 * A guild of PROBLEM made on process A by a new admin, with a new member who accepted the invitation through B.
 */
async function guildOnTwo(name: string, adminName: string, memberName: string) {
  const admin = await clusterUser(a, adminName);
  const member = await clusterUser(b, memberName);
  const guild = await ok(a, 201, "POST", "/api/guilds", admin.token, { name, description: "함께" });
  await ok(a, 200, "PUT", `/api/guilds/${guild.id}/problems`, admin.token, { problems: [PROBLEM] });
  const sent = await ok(a, 201, "POST", `/api/guilds/${guild.id}/invitations`, admin.token, {
    invites: [{ username: member.username, email: member.email }],
  });
  await ok(b, 200, "POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, member.token);
  return { admin, member, guild };
}

test.skipIf(!onPostgres)(
  "a guild game between members on two processes, and a kick across processes",
  async () => {
    const { admin, member, guild } = await guildOnTwo("두서버길드", "길드장", "길드원");

    const onA = await inRoom(a, admin.token, guild.id);
    const onB = await inRoom(b, member.token, guild.id);
    onA.emit("guild_game:start_request", { guild_id: guild.id, problem: PROBLEM });
    for (const client of [onA, onB]) await client.next("guild_game:start", () => true, 20_000);

    // The member on the other process types (progress computed by the owner) and finishes first.
    // Each types a character at a time (the steps the page sends; the answer is the last one).
    const typeOut = async (client: typeof onA, from: number) => {
      const chars = [...PROBLEM];
      for (let i = from + 1; i <= chars.length; i++) {
        client.emit("guild_game:progress", { guild_id: guild.id, typed_text: chars.slice(0, i).join("") });
        await Bun.sleep(60);
      }
    };
    const seconds = Math.ceil(keystrokes(PROBLEM) / 15); // about 900 타/분: plausible
    onA.emit("guild_game:progress", { guild_id: guild.id, typed_text: "가" });
    onB.emit("guild_game:progress", { guild_id: guild.id, typed_text: "가는 말이" });
    await Bun.sleep(seconds * 1000);
    await typeOut(onB, 5);
    onB.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    await Bun.sleep(500);
    await typeOut(onA, 1);
    onA.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    const end = await onA.next("guild_game:end", () => true, 15_000);
    expect(end.reason).toBe("all_finished");
    const results = await onB.next("guild_game:results", () => true, 15_000);
    expect(results.results.map((r: { username: string; position: number }) => [r.position, r.username])).toEqual([
      [1, member.username],
      [2, admin.username],
    ]);
    const stored = await cluster.sql`
      SELECT r.player_key FROM games_results r JOIN games_games g ON g.id = r.game_id
      WHERE g.mode = 'guild_game' AND g.source_id = ${String(guild.id)} ORDER BY r.position`;
    expect(stored.map((row) => row.player_key)).toEqual([`u_${member.id}`, `u_${admin.id}`]);

    // A kick through the admin's process: the member's socket on the other process leaves the room at once.
    const members = await ok(a, 200, "GET", `/api/guilds/${guild.id}/members`, admin.token);
    const entry = members.find((m: { user_id: number }) => m.user_id === member.id);
    await ok(a, 200, "DELETE", `/api/guilds/${guild.id}/members/${entry.id}`, admin.token);
    expect(await onB.next("guild:removed", () => true, 10_000)).toMatchObject({ guild_id: guild.id, reason: "kicked" });
  },
  90_000,
);

test.skipIf(!onPostgres)(
  "a member on the other process watches: the lanes with live 타/분 reach them, their input is refused by the owner",
  async () => {
    const { admin, member, guild } = await guildOnTwo("관전길드", "관전장", "관전원");

    const player = await inRoom(a, admin.token, guild.id);
    const watcher = await inRoom(b, member.token, guild.id, true);
    const watching = (state: { spectators: { username: string }[] }) =>
      state.spectators.some((s) => s.username === member.username);
    await watcher.next("guild_game:state", watching, 10_000);

    player.emit("guild_game:start_request", { guild_id: guild.id, problem: PROBLEM, countdown_seconds: 1 });
    const started = (await watcher.next("guild_game:start", () => true, 20_000)).state;
    expect(started.participants.map((p: { username: string }) => p.username)).toEqual([admin.username]);
    expect(watching(started)).toBe(true);

    // Forwarded to the owner and refused there, in the rooms' words.
    watcher.emit("guild_game:progress", { guild_id: guild.id, typed_text: "가" });
    expect(await watcher.next("error", () => true, 10_000)).toMatchObject({ code: "spectating" });

    await Bun.sleep(2_000); // a plausible pace: 36 keystrokes in more than 2 s
    const chars = [...PROBLEM];
    for (let i = 1; i <= chars.length; i++) {
      player.emit("guild_game:progress", { guild_id: guild.id, typed_text: chars.slice(0, i).join("") });
      await Bun.sleep(100);
    }
    const lane = (await watcher.next("guild_game:state", (s) => s.participants[0]?.progress > 0.5, 10_000))
      .participants[0];
    expect(lane.wpm).toBeGreaterThan(0);
    player.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    // The watcher holds nothing: the lone player's answer ends the game.
    expect((await watcher.next("guild_game:end", () => true, 15_000)).reason).toBe("all_finished");
  },
  90_000,
);
