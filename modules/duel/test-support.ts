import { io as connect, type Socket } from "socket.io-client";
import type { TestServer } from "../../apps/server/testing";

/** Real socket.io clients for the duel's integration tests: they record every event and keep the duel's blocks. */
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

export class DuelClient {
  readonly log: { event: string; payload: Payload }[] = [];
  private waiters: { test: (event: string, payload: Payload) => boolean; resolve: (payload: Payload) => void }[] = [];
  private cursors = new Map<string, number>();
  /** The duel's blocks as this client knows them from the events (game_start, new_word, block_defended, moves). */
  readonly blocks = new Map<number, SeenBlock>();
  side: "red" | "blue" | null = null;
  sessionId: string | null = null;

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: Payload) => {
      this.log.push({ event, payload });
      this.track(event, payload);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(event, payload)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(payload);
        }
      }
    });
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

  /** Emits with an acknowledgement: resolves once the server has handled the event. */
  send(event: string, payload: unknown = {}): Promise<Payload> {
    return this.socket.timeout(3000).emitWithAck(event, payload);
  }

  /** The next event of that name (after the previous `next` of that name) that matches; waits when not yet here. */
  next(event: string, match: (payload: Payload) => boolean = () => true, timeoutMs = 3000): Promise<Payload> {
    const from = this.cursors.get(event) ?? 0;
    for (let i = from; i < this.log.length; i++) {
      const entry = this.log[i];
      if (entry.event === event && match(entry.payload)) {
        this.cursors.set(event, i + 1);
        return Promise.resolve(entry.payload);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        const seen = this.log.slice(from).map((r) => r.event);
        reject(new Error(`no ${event} within ${timeoutMs} ms; received since: ${seen.join(", ")}`));
      }, timeoutMs);
      const done = (payload: Payload) => {
        clearTimeout(timer);
        this.cursors.set(event, this.log.findLastIndex((r) => r.payload === payload) + 1);
        resolve(payload);
      };
      this.waiters.push({ test: (e, p) => e === event && match(p), resolve: done });
    });
  }

  all(event: string): Payload[] {
    return this.log.filter((r) => r.event === event).map((r) => r.payload);
  }

  close() {
    this.socket.disconnect();
  }
}

/** A test server or a process of a test cluster (only its address is used). */
export async function openDuelClient(
  server: Pick<TestServer, "url">,
  auth: Record<string, string> = {},
): Promise<DuelClient> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth,
  });
  const client = new DuelClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}

/** Closes a client and waits until the server has handled the disconnect (no sleeping on a guess). */
export async function closeAndWait(server: TestServer, client: DuelClient) {
  const id = client.socket.id;
  client.close();
  for (let i = 0; i < 400 && id && server.io.of("/").sockets.has(id); i++) await Bun.sleep(5);
}
