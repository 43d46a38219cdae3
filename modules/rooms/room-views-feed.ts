import type { Cluster } from "../kernel/cluster";
import type { Logger } from "../kernel/logger";
import type { RoomView } from "./room-view";

/** A view heard from another process counts this long without being heard again (owners resend every 20 s). */
export const HEARD_TTL_MS = 60_000;
/** The first list of a process that starts listening waits at most this long for the owners' answers. */
const ANSWER_WAIT_MS = 250;
/**
 * A listener says hello again this often: the answers keep its views fresh, and an owner that stopped sending (a
 * hello or a subscription lost in a Redis reconnect) starts again.
 */
export const HELLO_EVERY_MS = 20_000;

/**
 * What one process says on `<prefix>rooms:views`: its rooms that changed, all its rooms (an answer to a hello), or
 * the rooms it no longer runs.
 */
interface ViewsMessage {
  from: string;
  kind: "change" | "answer";
  rooms: RoomView[];
  gone?: number[];
  /** An answer names the hello it answers. */
  to?: string;
}

export interface RoomViewsFeedEnv {
  cluster: Cluster;
  log: Logger;
  /** Every room this process owns, as the lobby sees it now. */
  ownViews(): RoomView[];
  /** Another process's rooms changed (or went away): this process's lobby hears of it. */
  heard(rooms: RoomView[], gone: number[]): void;
  /** Sockets of this process that watch the room list now. */
  lobbySize(): number;
  /** A process with an empty lobby and no list call for this long stops listening. */
  lingerMs: number;
  /** How often a listener says hello again (HELLO_EVERY_MS; tests shorten it). */
  helloEveryMs?: number;
}

interface Listening {
  /** The latest hello of this process (answers to it are news for this lobby). */
  hello: string;
  helloAt: number;
  /** Resolves once the first hello is answered by every other process (or ANSWER_WAIT_MS has passed). */
  ready: Promise<void>;
  answered(): void;
}

/**
 * The live room list between processes (REDIS_URL), paid for only while someone watches it.
 *
 * A process LISTENS while it has lobby sockets or was asked for the list lately: it subscribes to the views channel
 * and says hello on `<prefix>rooms:hello`; every process answers with the views of all its rooms, and from then on
 * sends the views of its rooms that change (one message per coalesced list update). The listener keeps the views it
 * hears; its list reads them, without a Redis read. It says hello again every 20 s: the answers refresh its views (a
 * view not heard for a minute is dropped, so a dead owner's rooms fade) and restart an owner that lost track of it.
 * A process SENDS only while another process listens: a hello opens the flow, and a message that reaches no other
 * listener (PUBLISH counts them) closes it. Redis counting the subscribers is what makes a crashed listener stop the
 * flow, with no heartbeat of our own.
 *
 * With nobody watching, as in a deployment where every player is in a room, no process sends anything for the list.
 */
export class RoomViewsFeed {
  private readonly viewsChannel: string;
  private readonly helloChannel: string;
  private listening: Listening | null = null;
  /** This process's subscription to the views channel is in place (PUBLISH then counts it among the receivers). */
  private subscribed = false;
  /** Another process listens: this one's changes are sent. */
  private othersListen = false;
  /** Hellos heard so far: a send whose count of listeners predates the latest hello does not close the flow. */
  private hellos = 0;
  private readonly heardViews = new Map<number, { view: RoomView; at: number; from: string }>();
  private wantedAt = 0;
  private readonly tendTimer: ReturnType<typeof setInterval>;
  private readonly helloEveryMs: number;
  private stopped = false;

  constructor(private readonly env: RoomViewsFeedEnv) {
    this.viewsChannel = `${env.cluster.prefix}rooms:views`;
    this.helloChannel = `${env.cluster.prefix}rooms:hello`;
    this.helloEveryMs = env.helloEveryMs ?? HELLO_EVERY_MS;
    const every = Math.max(50, Math.min(5_000, env.lingerMs / 2, this.helloEveryMs / 2));
    this.tendTimer = setInterval(() => this.tend(), every);
    this.tendTimer.unref?.();
  }

  /** Hears hellos from now on; a process joining a deployment where someone already listens sends at once. */
  async start() {
    const { redis, subscriber } = this.env.cluster;
    await subscriber.subscribe(this.helloChannel, this.onHello);
    const listeners = await redis.pubSubNumSub(this.viewsChannel);
    if ((listeners[this.viewsChannel] ?? 0) > 0) this.othersListen = true;
  }

  // --- sending (every process, for the rooms it owns) ------------------------------------------------------------

  /** The views of this process's rooms that changed. */
  changed(rooms: RoomView[]) {
    if (this.othersListen && rooms.length > 0) this.send({ kind: "change", rooms });
  }

  /** This process no longer runs these rooms (given up, or shutting down). */
  gone(roomIds: number[]) {
    if (this.othersListen && roomIds.length > 0) this.send({ kind: "change", rooms: [], gone: roomIds });
  }

  /** Whether a change of this process's rooms is sent anywhere (else the caller need not present it). */
  get sending() {
    return this.othersListen;
  }

  private send(message: Omit<ViewsMessage, "from">) {
    const hellos = this.hellos;
    const text = JSON.stringify({ ...message, from: this.env.cluster.processId });
    this.env.cluster.redis.publish(this.viewsChannel, text).then(
      (receivers) => {
        const others = receivers - (this.subscribed ? 1 : 0);
        if (others <= 0 && hellos === this.hellos) this.othersListen = false;
      },
      (error) => this.env.log.warn("room views not sent", { error: String(error) }),
    );
  }

  private readonly onHello = (text: string) => {
    const hello = parse<{ from: string; hello: string }>(text);
    if (!hello || hello.from === this.env.cluster.processId || this.stopped) return;
    this.hellos++;
    this.othersListen = true;
    try {
      this.send({ kind: "answer", rooms: this.env.ownViews(), to: hello.hello });
    } catch (error) {
      this.env.log.error("room views cannot be answered", { error: String(error) });
    }
  };

  // --- listening (a process that shows the list) -----------------------------------------------------------------

  /**
   * This process shows the list now (a lobby socket, a list call): it listens from now on, and the promise resolves
   * once every other process has answered its hello (at most ANSWER_WAIT_MS; then the caller falls back to what
   * the owners last wrote to Redis). Cheap when already listening.
   */
  want(): Promise<void> {
    this.wantedAt = Date.now();
    if (this.stopped) return Promise.resolve();
    this.listening ??= this.listen();
    return this.listening.ready;
  }

  /** The views heard for these rooms, fresh ones only (a room missing here is looked up in the summaries). */
  viewsOf(roomIds: number[]): Map<number, RoomView> {
    const views = new Map<number, RoomView>();
    const oldest = Date.now() - HEARD_TTL_MS;
    for (const id of roomIds) {
      const heard = this.heardViews.get(id);
      if (heard && heard.at >= oldest) views.set(id, heard.view);
    }
    return views;
  }

  private listen(): Listening {
    let expected = Number.POSITIVE_INFINITY;
    let answers = 0;
    let resolve = () => {};
    const ready = new Promise<void>((done) => {
      resolve = done;
    });
    const timeout = setTimeout(resolve, ANSWER_WAIT_MS);
    const settle = () => {
      if (answers < expected) return;
      clearTimeout(timeout);
      resolve();
    };
    const listening: Listening = {
      hello: "",
      helloAt: Date.now(),
      ready,
      answered: () => {
        answers++;
        settle();
      },
    };
    this.env.cluster.subscriber
      .subscribe(this.viewsChannel, this.onViews)
      .then(() => {
        if (this.listening === listening) this.subscribed = true;
        return this.sayHello(listening);
      })
      .then((receivers) => {
        expected = receivers - 1; // every process hears hellos, this one too
        settle();
      })
      .catch((error) => {
        this.env.log.warn("room views: cannot listen", { error: String(error) });
        clearTimeout(timeout);
        resolve();
      });
    return listening;
  }

  /** Every process answers with all its rooms; resolves with how many processes heard it (this one included). */
  private sayHello(listening: Listening): Promise<number> {
    listening.hello = crypto.randomUUID();
    listening.helloAt = Date.now();
    const { cluster } = this.env;
    return cluster.redis.publish(
      this.helloChannel,
      JSON.stringify({ from: cluster.processId, hello: listening.hello }),
    );
  }

  private readonly onViews = (text: string) => {
    const message = parse<ViewsMessage>(text);
    const listening = this.listening;
    if (!message || message.from === this.env.cluster.processId || !listening) return;
    const at = Date.now();
    for (const view of message.rooms) this.heardViews.set(view.id, { view, at, from: message.from });
    // A lost lease is given up after the new owner may have spoken: only the sender's own word is taken back.
    const gone = (message.gone ?? []).filter((id) => this.heardViews.get(id)?.from === message.from);
    for (const id of gone) this.heardViews.delete(id);
    if (message.kind === "answer" && message.to === listening.hello) listening.answered();
    // Another listener's answers and the periodic resends change nothing this lobby has not seen.
    const news = message.kind === "change" || message.to === listening.hello;
    if (news) this.env.heard(message.rooms, gone);
  };

  /** Every few seconds: say hello again when it is time, or stop listening after the linger. */
  private tend() {
    const listening = this.listening;
    if (!listening) return;
    const now = Date.now();
    if (this.env.lobbySize() > 0) this.wantedAt = now;
    if (now - this.wantedAt < this.env.lingerMs) {
      if (this.subscribed && now - listening.helloAt >= this.helloEveryMs) {
        this.sayHello(listening).catch((error) =>
          this.env.log.warn("room views: hello failed", { error: String(error) }),
        );
      }
      return;
    }
    this.listening = null;
    this.subscribed = false;
    this.heardViews.clear();
    this.env.cluster.subscriber
      .unsubscribe(this.viewsChannel, this.onViews)
      .catch((error) => this.env.log.warn("room views: cannot stop listening", { error: String(error) }));
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.tendTimer);
    const { subscriber } = this.env.cluster;
    await Promise.all([
      subscriber.unsubscribe(this.helloChannel, this.onHello),
      this.listening ? subscriber.unsubscribe(this.viewsChannel, this.onViews) : null,
    ]).catch(() => {});
    this.listening = null;
  }
}

function parse<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
