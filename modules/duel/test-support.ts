import { afterAll, beforeAll, expect } from "bun:test";
import type { Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import { openTestClient, TestClient } from "../kernel/socket-testing";
import type { DuelRecord } from "./store";

/** The kernel's test socket client, which for the duel's integration tests also keeps the duel's blocks. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
type Payload = any;

export interface SeenBlock {
  id: number;
  word: string;
  status: string;
  speed: number;
  x: number;
  y: number;
}

export class DuelClient extends TestClient {
  /** The duel's blocks as this client knows them from the events (game_start, new_word, block_defended, moves). */
  readonly blocks = new Map<number, SeenBlock>();
  side: "red" | "blue" | null = null;
  sessionId: string | null = null;

  protected override onEvent(event: string, payload: Payload) {
    this.track(event, payload);
  }

  private track(event: string, payload: Payload) {
    if (event === "duel:match_found") {
      this.side = payload.your_side;
      this.sessionId = payload.session_id;
      this.blocks.clear();
    }
    if (payload?.session_id !== this.sessionId) return;
    if (event === "duel:game_start") {
      this.blocks.clear();
      for (const b of payload.state.word_blocks) this.blocks.set(b.id, b);
    }
    if (event === "duel:word_position_update") {
      const block = this.blocks.get(payload.block_id);
      if (block) Object.assign(block, { status: payload.status, speed: payload.speed });
    }
    if (event === "duel:new_word") {
      this.blocks.delete(payload.replaced_block_id);
      for (const b of payload.word_blocks) this.blocks.set(b.id, b);
    }
    if (event === "duel:block_defended") {
      this.blocks.delete(payload.block_id);
      for (const b of payload.new_blocks) this.blocks.set(b.id, b);
    }
  }

  /** A static block's word (to fire), or the word of a block coming at this client (to defend). */
  word(kind: "static" | "incoming"): SeenBlock {
    const incoming = this.side === "red" ? "moving_left" : "moving_right";
    const block = [...this.blocks.values()].find((b) => b.status === (kind === "static" ? "static" : incoming));
    if (!block) throw new Error(`no ${kind} block; blocks: ${JSON.stringify([...this.blocks.values()])}`);
    return block;
  }

  /** `ack` under the name the duel's tests use. */
  send(event: string, payload: unknown = {}): Promise<Payload> {
    return this.ack(event, payload);
  }
}

/** A test server or a process of a test cluster (only its address is used). */
export function openDuelClient(
  server: Pick<TestServer, "url">,
  auth: Record<string, string> = {},
): Promise<DuelClient> {
  return openTestClient(server, auth, (socket: Socket) => new DuelClient(socket));
}

export { closeAndWait } from "../kernel/socket-testing";

/**
 * The test server of a test file, on a FakeClock (the tests move game time with `clock.advance`), started before its
 * tests and stopped after them; `people` makes its members and guests. Read the fields inside tests or hooks.
 */
export function duelTestServer(prefix: string) {
  const suite = {} as { server: TestServer; clock: FakeClock; people: ReturnType<typeof duelists> };
  beforeAll(async () => {
    suite.clock = new FakeClock(Date.UTC(2026, 4, 4, 3, 0, 0));
    suite.server = await startTestServer({ clock: suite.clock });
    suite.people = duelists(suite.server, prefix);
  });
  afterAll(() => stopOnFakeClock(suite.server, suite.clock));
  return suite;
}

/** Stops a test server on a FakeClock: write retries wait on its clock, so any still waiting run out first. */
async function stopOnFakeClock(server: TestServer, clock: FakeClock) {
  for (let i = 0; i < 8; i++) {
    clock.advance(5_000);
    await Bun.sleep(2);
  }
  await server.stop();
}

/** Member and guest clients of one test server, numbered so every name and e-mail is new. */
export function duelists(server: TestServer, prefix: string) {
  let count = 0;
  return {
    async member() {
      count++;
      const user = await server.createUser(`${prefix}${count}`, {
        email: `duelist-${crypto.randomUUID()}@example.com`,
      });
      const client = await openDuelClient(server, { token: user.token });
      return Object.assign(client, { user });
    },
    guest() {
      return openDuelClient(server, { client_id: `duel-guest-${prefix}-${++count}-${Date.now()}` });
    },
  };
}

/** Both ready, the countdown 3-2-1 (moved on by the server's fake clock), the start; answers the started state. */
export async function startDuel(clock: FakeClock, red: DuelClient, blue: DuelClient) {
  // Events of this duel only (the same clients may have played earlier duels).
  const ofThis = (p: { session_id: string }) => p.session_id === red.sessionId;
  await red.send("duel_player_ready");
  await blue.send("duel_player_ready");
  expect((await red.next("duel:countdown", (p) => ofThis(p) && p.countdown === 3)).countdown).toBe(3);
  clock.advance(1_000);
  expect((await blue.next("duel:countdown", (p) => ofThis(p) && p.countdown === 2)).countdown).toBe(2);
  clock.advance(1_000);
  clock.advance(1_000);
  const [started] = await Promise.all([red.next("duel:game_start", ofThis), blue.next("duel:game_start", ofThis)]);
  return started.state;
}

/**
 * Both search until paired, for two members whose ratings have drifted apart: the accepted rating gap widens by 50
 * every 5 s waited, so the clock moves on (heartbeats keep both listed) until they are. Answers [red, blue].
 */
export async function matchAcrossGap<P extends DuelClient>(clock: FakeClock, a: P, b: P): Promise<[P, P]> {
  const seen = a.all("duel:match_found").length;
  await a.send("duel_find_match");
  await b.send("duel_find_match");
  for (let i = 0; i < 40 && a.all("duel:match_found").length === seen; i++) {
    clock.advance(5_000);
    await a.send("duel_heartbeat", { timestamp: clock.now() });
    await b.send("duel_heartbeat", { timestamp: clock.now() });
  }
  const [foundA] = await Promise.all([a.next("duel:match_found"), b.next("duel:match_found")]);
  return foundA.your_side === "red" ? [a, b] : [b, a];
}

/**
 * A duel as the store records it, for tests that need members' duel figures without playing one (store
 * `recordDuel`): 40 s, the winner on 3 lives, the loser on none; a draw leaves both on 3.
 */
export function duelRecord(
  sessionId: string,
  red: number,
  blue: number,
  winnerSide: DuelRecord["winnerSide"] = "red",
  endedAt = Date.now(),
): DuelRecord {
  return {
    sessionId,
    redUserId: red,
    blueUserId: blue,
    winnerSide,
    reason: winnerSide === "draw" ? "time_up_draw" : "no_lives",
    redLives: winnerSide === "blue" ? 0 : 3,
    blueLives: winnerSide === "red" ? 0 : 3,
    redWordsTyped: 12,
    blueWordsTyped: 7,
    duration: 40,
    startedAt: endedAt - 40_000,
    endedAt,
  };
}
