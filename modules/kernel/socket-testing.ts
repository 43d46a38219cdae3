import { io as connect, type Socket } from "socket.io-client";
import type { AppServer } from "./socket";

/**
 * The test socket client of every module's integration tests: a real socket.io client that records every event it
 * receives and waits for the next one without sleeping on a guess. One copy here (rooms, guilds and the duel each had
 * their own); a module's test support re-exports it under the name its tests use, or extends it (`onEvent`) to keep
 * what only its tests need (the duel's blocks).
 */

/** Every event a test socket received, in order. */
export interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
  payload: any;
}

// biome-ignore lint/suspicious/noExplicitAny: see Received
type Payload = any;

export class TestClient {
  readonly log: Received[] = [];
  private waiters: { test: (r: Received) => boolean; done: (r: Received) => void }[] = [];
  /** Per event name: events before this index have been consumed by `next`. */
  private cursors = new Map<string, number>();

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      const received = { event, payload };
      this.log.push(received);
      this.onEvent(event, payload);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(received)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.done(received);
        }
      }
    });
  }

  /** For a subclass: sees each event as it arrives, before anyone waiting for it. */
  protected onEvent(_event: string, _payload: Payload): void {}

  emit(event: string, ...args: unknown[]) {
    this.socket.emit(event, ...args);
  }

  /** Emits with an acknowledgement and resolves with what the server acknowledged (once it has handled the event). */
  ack(event: string, payload: unknown = {}): Promise<Payload> {
    return this.socket.timeout(3_000).emitWithAck(event, payload);
  }

  /**
   * The next event of that name (after the previous `next` of that name) that matches; waits for it when it has
   * not arrived yet. Rejects after a generous timeout with what did arrive, so a failing test says why.
   */
  next(event: string, match: (payload: Payload) => boolean = () => true, timeoutMs = 3_000): Promise<Payload> {
    const test = (r: Received) => r.event === event && match(r.payload);
    const from = this.cursors.get(event) ?? 0;
    for (let i = from; i < this.log.length; i++) {
      if (test(this.log[i])) {
        this.cursors.set(event, i + 1);
        return Promise.resolve(this.log[i].payload);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.done !== done);
        const seen = this.log.slice(from).map((r) => r.event);
        reject(new Error(`no ${event} within ${timeoutMs} ms; received since: ${seen.join(", ")}`));
      }, timeoutMs);
      const done = (r: Received) => {
        clearTimeout(timer);
        this.cursors.set(event, this.log.indexOf(r) + 1);
        resolve(r.payload);
      };
      this.waiters.push({ test, done });
    });
  }

  /** Every received event of that name so far. */
  all(event: string): Payload[] {
    return this.log.filter((r) => r.event === event).map((r) => r.payload);
  }

  /** A round trip through the server: everything the server sent before has arrived when this resolves. */
  async sync() {
    const stamp = Math.random();
    this.emit("ping", { timestamp: stamp });
    await this.next("pong", (p) => p.timestamp === stamp);
  }

  close() {
    this.socket.disconnect();
  }
}

/** Connects a client (`make` builds a subclass) to a test server or a process of a test cluster (only its address). */
export async function openTestClient<C extends TestClient = TestClient>(
  server: { url: string },
  auth: Record<string, string> = {},
  make: (socket: Socket) => C = (socket) => new TestClient(socket) as C,
): Promise<C> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth,
  });
  const client = make(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}

/** Closes a client and waits until the server has handled the disconnect (no sleeping on a guess). */
export async function closeAndWait(server: { io: AppServer }, client: TestClient) {
  const id = client.socket.id;
  client.close();
  for (let i = 0; i < 400 && id && server.io.of("/").sockets.has(id); i++) await Bun.sleep(5);
}
