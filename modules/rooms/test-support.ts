import { io as connect, type Socket } from "socket.io-client";
import type { TestServer } from "../../apps/server/testing";

/** Test helpers for rooms integration tests: real socket.io clients that record every event they receive. */
export interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
  payload: any;
}

export class Client {
  readonly log: Received[] = [];
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  /** Per event name: events before this index have been consumed by `next`. */
  private cursors = new Map<string, number>();

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      const received = { event, payload };
      this.log.push(received);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(received)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(received);
        }
      }
    });
  }

  emit(event: string, ...args: unknown[]) {
    this.socket.emit(event, ...args);
  }

  /**
   * The next event of that name (after the previous `next` of that name) that matches; waits for it when it has
   * not arrived yet.
   * Rejects after a generous timeout with what did arrive, so a failing test says why.
   */
  // biome-ignore lint/suspicious/noExplicitAny: see Received
  next(event: string, match: (payload: any) => boolean = () => true, timeoutMs = 3000): Promise<any> {
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
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        const seen = this.log.slice(from).map((r) => r.event);
        reject(new Error(`no ${event} within ${timeoutMs} ms; received since: ${seen.join(", ")}`));
      }, timeoutMs);
      const done = (r: Received) => {
        clearTimeout(timer);
        this.cursors.set(event, this.log.indexOf(r) + 1);
        resolve(r.payload);
      };
      this.waiters.push({ match: test, resolve: done });
    });
  }

  /** Every received event of that name so far. */
  all(event: string) {
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

export async function openClient(server: TestServer, auth: Record<string, string>): Promise<Client> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth,
  });
  const client = new Client(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}

let counter = 0;
/** Registers and logs in a member; returns the token and id. */
export async function member(server: TestServer, prefix = "선수") {
  counter++;
  const email = `player${counter}-${Date.now()}@example.com`;
  const { id, username, token } = await server.createUser(`${prefix}${counter}`, { email });
  return { id, username, token };
}

/** Closes a client and waits until the server has handled the disconnect (no sleeping on a guess). */
export async function closeAndWait(server: TestServer, client: Client) {
  const id = client.socket.id;
  client.close();
  for (let i = 0; i < 400 && id && server.io.of("/").sockets.has(id); i++) await Bun.sleep(5);
}
