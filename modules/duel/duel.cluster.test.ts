import { beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "redis";
import { twoProcessSuite } from "../../apps/server/cluster-suite";
import { type ClusterProcess, clusterUser, type TestCluster } from "../../apps/server/cluster-testing";
import { leaseHolder } from "../kernel/game-host";
import { eventually } from "../kernel/game-host/redis-testing";
import { type DuelClient, openDuelClient } from "./test-support";

// Two real server processes (as `npm start` runs them) on one PostgreSQL and one Redis, with the duel's default
// rules on real time: a member on each process finds the other, they duel to a win, the result is stored once; a
// challenge made on one process is declined and accepted on the other, and watchers on both processes see the duel.
// Runs in the PostgreSQL pass of `npm test` (several processes need PostgreSQL).
const suite = twoProcessSuite<DuelClient>();
const { onPostgres, clients } = suite;

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  cluster = suite.cluster;
  [a, b] = suite.processes;
});

async function member(process: ClusterProcess) {
  const user = await clusterUser(process);
  const client = await openDuelClient(process, { token: user.token });
  clients.push(client);
  return Object.assign(client, { user });
}

/** Who holds a duel's lease now (the ownership's key), or null. */
async function holderOf(sessionId: string) {
  const redis = createClient({ url: cluster.redisUrl });
  await redis.connect();
  try {
    return await leaseHolder(redis, `duel:${sessionId}`, cluster.redisPrefix);
  } finally {
    await redis.close();
  }
}

const nicknames = (list: { users: { nickname: string }[] }) => list.users.map((u) => u.nickname);

describe.skipIf(!onPostgres)("the duel on two server processes", () => {
  test("a member on A and one on B are listed together, matched, duel to a win; the result is stored once", async () => {
    const alice = await member(a);
    const bob = await member(b);
    // A menu socket on each process that plays no duel (players in a duel get no list pushes).
    const watchers = [await member(a), await member(b)];
    for (const socket of [alice, bob, ...watchers]) await socket.send("duel_enter_menu");
    // One online list for both processes.
    const listed = await alice.send("duel_get_online_users");
    expect(nicknames(listed)).toEqual(expect.arrayContaining([alice.user.username, bob.user.username]));

    // Each searches on its own process; the shared queue pairs them.
    expect(await alice.send("duel_find_match")).toMatchObject({ success: true, status: "waiting" });
    await bob.send("duel_find_match");
    const [foundA, foundB] = await Promise.all([
      alice.next("duel:match_found", undefined, 10_000),
      bob.next("duel:match_found", undefined, 10_000),
    ]);
    expect(foundA.session_id).toBe(foundB.session_id);
    expect(foundA.opponent_nickname).toBe(bob.user.username);
    expect(foundB.opponent_nickname).toBe(alice.user.username);
    // The coalesced list reaches the menu sockets of both processes: the players on the other process are in game.
    const inGame = (name: string) => (p: { users: { nickname: string; status: string }[] }) =>
      p.users.some((u) => u.nickname === name && u.status === "in_game");
    await watchers[1].next("duel:user_list_update", inGame(alice.user.username), 5_000);
    await watchers[0].next("duel:user_list_update", inGame(bob.user.username), 5_000);
    const [red, blue] = foundA.your_side === "red" ? [alice, bob] : [bob, alice];
    expect(blue.side).toBe("blue");

    // A second search while in the duel is refused, on either process.
    await expect(bob.send("duel_find_match")).resolves.toBeDefined();
    expect(bob.all("error").at(-1)).toMatchObject({ code: "already_in_game" });

    await red.send("duel_player_ready");
    await blue.send("duel_player_ready");
    expect((await blue.next("duel:countdown", undefined, 5_000)).countdown).toBe(3);
    const started = await red.next("duel:game_start", undefined, 10_000);
    expect(started.state).toMatchObject({ status: "in_progress", red_lives: 5, blue_lives: 5 });
    await blue.next("duel:game_start", undefined, 10_000);

    // Red fires five blocks; blue never defends: they fly into blue's edge.
    for (let shot = 0; shot < 5; shot++) {
      const block = red.word("static");
      await red.send("duel_word_typed", { typed_word: block.word });
      // Red's own view moves the block first, so the next shot picks another static block.
      await red.next("duel:word_position_update", (p) => p.block_id === block.id, 5_000);
      await blue.next("duel:bullet_fired", (p) => p.bullet.target_block_id === block.id, 5_000);
    }
    const [overRed, overBlue] = await Promise.all([
      red.next("duel:game_over", undefined, 20_000),
      blue.next("duel:game_over", undefined, 20_000),
    ]);
    expect(overRed).toEqual(overBlue);
    expect(overRed.result).toMatchObject({
      winner_side: "red",
      reason: "no_lives",
      blue_remaining_lives: 0,
      red_words_typed: 5,
      rated: true,
    });
    const [statsRed, statsBlue] = await Promise.all([
      red.next("duel:stats_update", undefined, 10_000),
      blue.next("duel:stats_update", undefined, 10_000),
    ]);
    expect(statsRed).toMatchObject({ user_id: red.user.id, wins: 1, losses: 0, total_games: 1 });
    expect(statsRed.rating).toBeGreaterThan(1500);
    expect(statsBlue).toMatchObject({ user_id: blue.user.id, wins: 0, losses: 1, total_games: 1 });
    expect(statsBlue.rating).toBeLessThan(1500);

    // Stored exactly once, with both ratings; the ranking of either process shows it.
    const rows = await cluster.sql`SELECT * FROM duel_games WHERE session_id = ${foundA.session_id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ winner_side: "red", reason: "no_lives" });
    const players = await cluster.sql`SELECT user_id, wins, losses FROM duel_players ORDER BY user_id`;
    expect(players).toHaveLength(2);
    const ranking = await b.api("GET", "/api/rankings/duel/total-games");
    expect(ranking.body.map((e: { username: string }) => e.username).sort()).toEqual(
      [alice.user.username, bob.user.username].sort(),
    );

    // Both are free again: a new search on either process is accepted.
    expect(await eventually(async () => (await red.send("duel_find_match")).status === "waiting")).toBe(true);
    expect((await red.send("duel_cancel_match")).status).toBe("idle");

    // Both leave the result: the duel is closed and its owner gives its lease back (no process keeps it).
    await red.send("duel_leave_game");
    await blue.send("duel_leave_game");
    expect(await eventually(async () => (await holderOf(foundA.session_id)) === null)).toBe(true);
  }, 60_000);

  test("a challenge across processes (declined, then accepted); watchers on both processes see it live", async () => {
    const alice = await member(a);
    const bob = await member(b);
    for (const socket of [alice, bob]) await socket.send("duel_enter_menu");
    const sid = `u_${bob.user.id}`;

    // Declined on B: the challenger on A hears it.
    const first = await alice.send("duel_challenge", { sid });
    expect(first).toMatchObject({ success: true, expires_in: 15 });
    const received = await bob.next("duel:challenge_received", (p) => p.challenge_id === first.challenge_id, 5_000);
    expect(received.from).toEqual({ sid: `u_${alice.user.id}`, nickname: alice.user.username, rating: 1500 });
    expect(await bob.send("duel_challenge_decline", { challenge_id: first.challenge_id })).toEqual({ success: true });
    expect(await alice.next("duel:challenge_closed", undefined, 5_000)).toMatchObject({ reason: "declined" });

    // Accepted on B: the challenging socket on A and the accepting one on B are seated in one duel.
    const second = await alice.send("duel_challenge", { sid });
    await bob.next("duel:challenge_received", (p) => p.challenge_id === second.challenge_id, 5_000);
    const accepted = await bob.send("duel_challenge_accept", { challenge_id: second.challenge_id });
    expect(accepted.success).toBe(true);
    const sessionId: string = accepted.session_id;
    const [foundA, foundB] = await Promise.all([
      alice.next("duel:match_found", undefined, 10_000),
      bob.next("duel:match_found", undefined, 10_000),
    ]);
    expect(foundA).toMatchObject({ session_id: sessionId, your_side: "red", opponent_nickname: bob.user.username });
    expect(foundB).toMatchObject({ session_id: sessionId, your_side: "blue" });
    // A second acceptance, on either process, finds nothing.
    expect((await bob.send("duel_challenge_accept", { challenge_id: second.challenge_id })).success).toBe(false);

    // A watcher on each process, one of them not the duel's owner: a guest there, a member on the owner's.
    expect(await eventually(async () => (await holderOf(sessionId)) !== null)).toBe(true);
    const holder = await holderOf(sessionId);
    const owner = [a, b].find((p) => holder?.processId.includes(`:${p.process.pid}:`))!;
    const elsewhere = owner === a ? b : a;
    const guest = await openDuelClient(elsewhere, { client_id: `cluster-watcher-${Date.now()}` });
    clients.push(guest);
    const fan = await member(owner);
    for (const watcher of [guest, fan]) {
      expect(await watcher.send("duel_watch", { session_id: sessionId })).toEqual({
        success: true,
        session_id: sessionId,
      });
      const seen = await watcher.next("duel:watch_state", undefined, 5_000);
      expect(seen.state).toMatchObject({
        red_nickname: alice.user.username,
        blue_nickname: bob.user.username,
        red_rating: 1500,
        blue_rating: 1500,
      });
    }

    await alice.send("duel_player_ready");
    await bob.send("duel_player_ready");
    await alice.next("duel:game_start", undefined, 10_000);
    expect((await guest.next("duel:game_start", undefined, 10_000)).state.status).toBe("in_progress");
    const block = alice.word("static");
    await alice.send("duel_word_typed", { typed_word: block.word });
    expect((await guest.next("duel:bullet_fired", undefined, 5_000)).bullet).toEqual({
      side: "red",
      target_block_id: block.id,
    });
    // The watcher elsewhere cannot type; its chat reaches the other watcher, never the players.
    const typed = await guest.send("duel_word_typed", { typed_word: alice.word("static").word });
    expect(typed).toEqual({ success: false, error: "관전 중에는 입력할 수 없습니다." });
    expect(await guest.send("duel_watch_chat", { message: "다른 서버에서 응원합니다" })).toEqual({ success: true });
    expect((await fan.next("duel:watch_chat", undefined, 5_000)).message).toBe("다른 서버에서 응원합니다");
    await guest.next("duel:watch_chat", undefined, 5_000);
    await Promise.all([alice.sync(), bob.sync()]);
    expect([...alice.all("duel:watch_chat"), ...bob.all("duel:watch_chat")]).toEqual([]);

    // The end reaches both watchers; the duel closes when its players leave.
    await bob.send("duel_leave_game");
    for (const watcher of [guest, fan]) {
      expect((await watcher.next("duel:game_over", undefined, 5_000)).result).toMatchObject({ winner_side: "red" });
    }
    await alice.send("duel_leave_game");
    expect(await eventually(async () => (await holderOf(sessionId)) === null)).toBe(true);
  }, 60_000);

  test("the owner of a duel in play is killed: the other process takes it over and ends it as a draw, unrated", async () => {
    const alice = await member(a);
    const bob = await member(b);
    await alice.send("duel_find_match");
    await bob.send("duel_find_match");
    const found = await alice.next("duel:match_found", undefined, 10_000);
    await bob.next("duel:match_found", undefined, 10_000);
    await alice.send("duel_player_ready");
    await bob.send("duel_player_ready");
    await alice.next("duel:game_start", undefined, 10_000);
    await alice.send("duel_word_typed", { typed_word: alice.word("static").word });

    // Which process runs the duel: its lease names the owner's process (host:pid:…).
    const holder = await holderOf(found.session_id);
    const owner = [a, b].find((p) => holder?.processId.includes(`:${p.process.pid}:`));
    expect(owner).toBeDefined();
    const [survivor, survivorClient] = owner === a ? [b, bob] : [a, alice];
    await cluster.kill(owner!, "SIGKILL");

    // The duel lived only in the dead owner's memory: the survivor's process takes it and ends it.
    const over = await survivorClient.next("duel:game_over", (p) => p.session_id === found.session_id, 20_000);
    expect(over.result).toMatchObject({ winner_side: "draw", reason: "stopped", played: false, rated: false });
    const rows = await cluster.sql`SELECT 1 FROM duel_games WHERE session_id = ${found.session_id}`;
    expect(rows).toHaveLength(0);
    // The survivor is free: a new search is accepted on its process.
    expect(await eventually(async () => (await survivorClient.send("duel_find_match")).status === "waiting")).toBe(
      true,
    );
    expect(survivor.process.exitCode).toBeNull();
    // The ended duel is closed on the survivor too: its lease is given back.
    expect(await eventually(async () => (await holderOf(found.session_id)) === null)).toBe(true);
  }, 60_000);
});
