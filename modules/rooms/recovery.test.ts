import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { modules as defaultModules } from "../../apps/server/modules";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import type { Logger } from "../kernel/logger";
import { createRoom, createRoomsModule } from ".";
import { type RaceMode, sentenceRace } from "./sentence-race";
import { type Client, closeAndWait, openClient } from "./test-support";

/**
 * A failing step of one room's game (a bug in a mode, a pool that cannot be read) must not end the process: the
 * game host (modules/kernel/game-host, its guarded callbacks) logs it and starts that room over in waiting, and
 * every other room goes on. The server runs the real
 * sentence race wrapped so that a chosen room's step throws; on a FakeClock a throw that escaped a timer callback
 * would come out of `clock.advance` and fail the test, as it would end the process under Bun.
 */
const faults = { tick: 0, leave: 0, view: 0 };

/** Throws once when the fault of that kind is armed for this room. */
function failOnce(kind: "tick" | "leave", roomId: number) {
  if (faults[kind] !== roomId) return;
  faults[kind] = 0;
  throw new Error(`${kind} failed (test)`);
}

const faultyMode: RaceMode = {
  ...sentenceRace,
  tick(state, ctx) {
    failOnce("tick", state.roomId);
    return sentenceRace.tick(state, ctx);
  },
  onPlayerLeave(state, playerId, ctx) {
    failOnce("leave", state.roomId);
    return sentenceRace.onPlayerLeave(state, playerId, ctx);
  },
  // Fails for as long as it is armed: the room's view (game:state, the room list) cannot be built.
  playerView(state, playerId) {
    if (faults.view === state.roomId) throw new Error("view failed (test)");
    return sentenceRace.playerView(state, playerId);
  },
};

const logged: { message: string; fields?: Record<string, unknown> }[] = [];
const log: Logger = {
  debug() {},
  info() {},
  warn() {},
  error(message, fields) {
    logged.push({ message, fields });
  },
  child: () => log,
};

let server: TestServer;
let clock: FakeClock;
const clients: Client[] = [];
let roomCounter = 0;

beforeAll(async () => {
  clock = new FakeClock(Date.now());
  const modules = defaultModules.map((m) => (m.name === "rooms" ? createRoomsModule({ mode: faultyMode }) : m));
  server = await startTestServer({ clock, log, modules });
});
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  faults.tick = faults.leave = faults.view = 0;
  logged.length = 0;
  for (const c of clients.splice(0)) await closeAndWait(server, c);
  clock.advance(10_000);
  clock.advance(10_000);
});

async function guest(clientId: string) {
  const client = await openClient(server, { client_id: clientId });
  clients.push(client);
  await client.sync();
  return client;
}

async function newRoom() {
  roomCounter++;
  return createRoom(server.ctx, { name: `복구 시험 방 ${roomCounter}`, theme: "beginner" });
}

/** The first player in: the room schedules its first game 5 s from now (room:joined carries that state). */
async function enterFirst(client: Client, roomId: number) {
  client.emit("join_anonymous", { room_id: roomId });
  const joined = await client.next("room:joined:anonymous");
  expect(joined.game_state).toMatchObject({
    status: "waiting",
    next_game_at: new Date(clock.now() + 5_000).toISOString(),
  });
}

const roomInfo = async (id: number) => (await server.api("GET", `/api/rooms/${id}`)).body;
/** Error lines about this room: the game host names it by its source id, the rooms runtime by its room id. */
const failuresOf = (roomId: number) =>
  logged.filter((l) => l.fields?.source_id === roomId || l.fields?.room_id === roomId);

describe("a failing step of one room", () => {
  test("a game step that throws resets that room to waiting; its players stay; other rooms keep running", async () => {
    const broken = await newRoom();
    const healthy = await newRoom();
    const a = await guest("recover-guest-a1");
    const b = await guest("recover-guest-b1");
    await enterFirst(a, broken.id);
    await enterFirst(b, healthy.id);

    faults.tick = broken.id; // the step that would start the countdown
    clock.advance(5_000);
    const reset = await a.next("game:state");
    expect(reset).toMatchObject({ room_id: broken.id, status: "waiting", sentence: null });
    expect(reset.next_game_at).toBe(new Date(clock.now() + 5_000).toISOString());
    expect(await b.next("game:state")).toMatchObject({ room_id: healthy.id, status: "countdown" });
    expect(failuresOf(broken.id).length).toBeGreaterThan(0);
    expect(await roomInfo(broken.id)).toMatchObject({ total_participants: 1, game_status: "waiting" });

    // The room runs its next game as usual.
    clock.advance(5_000);
    expect(await a.next("game:state")).toMatchObject({ room_id: broken.id, status: "countdown" });
    clock.advance(3_000);
    expect(await a.next("game:state")).toMatchObject({ status: "in_progress" });
  });

  test("a reconnect grace period that ends in a failure leaves the room consistent", async () => {
    const room = await newRoom();
    const stays = await guest("recover-guest-s1");
    const drops = await guest("recover-guest-d1");
    await enterFirst(stays, room.id);
    drops.emit("join_anonymous", { room_id: room.id });
    await drops.next("room:joined:anonymous");
    clock.advance(2_000);
    await closeAndWait(server, drops);
    clients.splice(clients.indexOf(drops), 1);

    faults.leave = room.id; // the player's place is given up when the grace period ends: that step fails
    clock.advance(5_000);
    const update = await stays.next("room:users_update", (u) => u.total_participants === 1);
    expect(update).toMatchObject({ room_id: room.id, anonymous_count: 1 });
    expect(await stays.next("game:state", (s) => s.status === "waiting")).toMatchObject({ room_id: room.id });
    expect(failuresOf(room.id).length).toBeGreaterThan(0);
    expect(await roomInfo(room.id)).toMatchObject({ total_participants: 1, anonymous_count: 1 });
  });

  test("a room whose view cannot be built does not stop the lobby's list updates of the others", async () => {
    const broken = await newRoom();
    const healthy = await newRoom();
    const lobby = await guest("recover-viewer-1");
    const a = await guest("recover-guest-a2");
    const b = await guest("recover-guest-b2");
    await enterFirst(a, broken.id);
    await enterFirst(b, healthy.id);
    clock.advance(1_000); // the joins' list update
    await lobby.next("room:list_update", (u) => u.rooms.some((r: { id: number }) => r.id === healthy.id));

    faults.view = broken.id;
    clock.advance(4_000); // both rooms start their countdowns; the broken one fails and starts over
    await b.next("game:state", (s) => s.status === "countdown");
    clock.advance(1_000); // the coalesced list update
    const update = await lobby.next("room:list_update", (u) =>
      u.rooms.some((r: { id: number }) => r.id === healthy.id),
    );
    expect(update.rooms.find((r: { id: number }) => r.id === healthy.id)).toMatchObject({ game_status: "countdown" });
    expect(update.rooms.some((r: { id: number }) => r.id === broken.id)).toBe(false);
    expect(failuresOf(broken.id).length).toBeGreaterThan(0);

    // Once its view works again the room plays on: it had been started over in waiting.
    faults.view = 0;
    clock.advance(5_000);
    expect(await a.next("game:state", (s) => s.status === "countdown")).toMatchObject({ room_id: broken.id });
  });
});
