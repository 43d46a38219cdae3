import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { AppError } from "../kernel/errors";
import type { AppServer } from "../kernel/socket";
import { type SpeechCheck, setSpeechCheck } from "../kernel/speech";
import { MODERATION_MSG } from "./rules";
import type { RestrictionRow } from "./schema";
import { type ModerationStore, moderationStoreOf } from "./store";
import { type ProfanityBook, profanityBookOf } from "./word-list";
import "./wire";

/** Every process reads the mutes in force this often (the CLI's changes without Redis; a lost Redis message). */
export const MUTES_POLL_MS = 2_000;

const channelOf = (ctx: ModuleContext) => `${ctx.cluster?.prefix ?? ""}moderation:changed`;

/**
 * The mutes in force, held by each server process (README "Enforcement"): chat lines are checked against it on the
 * process that runs the room (synchronously, in the game's input), posts on the process that answers. It is read
 * again after this process's own action, when another process says so (Redis `moderation:changed`), and every
 * `MUTES_POLL_MS`; each read tells the member's live sockets on this process about a new mute or a lifted one.
 * The same reads bring the administrators' changes to the profanity list (word-list.ts), which spread the same way.
 */
export class MuteBook {
  private mutes = new Map<number, RestrictionRow>();
  /** The mute ids of the last read, null before the first (the mutes of before the boot are nobody's news). */
  private known: Set<number> | null = null;
  private io: AppServer | null = null;
  private timer: TimerHandle | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly origin = crypto.randomUUID();
  private readonly store: ModerationStore;
  private readonly words: ProfanityBook;

  constructor(private readonly ctx: ModuleContext) {
    this.store = moderationStoreOf(ctx.database);
    this.words = profanityBookOf(ctx);
  }

  readonly check: SpeechCheck = (userId, kind) => {
    const mute = this.mutes.get(userId);
    const until = mute?.endsAt?.getTime() ?? null;
    if (!mute || (until !== null && until <= this.ctx.clock.now())) return null;
    // Mutes always end (1 h, 24 h, 7 days); a mute without an end would read "until lifted".
    const end = until ?? Number.MAX_SAFE_INTEGER;
    const detail =
      kind === "chat" ? MODERATION_MSG.mutedChat(end, mute.reason) : MODERATION_MSG.mutedPost(end, mute.reason);
    return new AppError(403, detail, "muted", { muted_until: mute.endsAt?.toISOString() ?? "" });
  };

  async start() {
    setSpeechCheck(this.ctx, this.check);
    await this.read();
    const cluster = this.ctx.cluster;
    if (cluster) {
      await cluster.subscriber.subscribe(channelOf(this.ctx), this.onMessage);
    }
    this.schedule();
  }

  attach(io: AppServer) {
    this.io = io;
  }

  /** After this process changed a mute: read now (local sockets told before the answer), then tell the others. */
  async changed() {
    await this.read();
    await publishChange(this.ctx, this.origin);
  }

  /** Reads the mutes in force (one read at a time; a read asked meanwhile runs once after it). */
  read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readOnce().catch((error) => this.ctx.log.warn("mutes not read", { error: String(error) }));
        await this.words
          .read()
          .catch((error) => this.ctx.log.warn("profanity list not read", { error: String(error) }));
      } while (this.again && !this.stopped);
      this.reading = null;
    })();
    return this.reading;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) this.ctx.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.reading;
    await this.ctx.cluster?.subscriber.unsubscribe(channelOf(this.ctx), this.onMessage).catch(() => {});
  }

  private readonly onMessage = (origin: string) => {
    if (origin !== this.origin) void this.read();
  };

  private schedule() {
    if (this.stopped) return;
    this.timer = this.ctx.clock.setTimeout(async () => {
      await this.read();
      this.schedule();
    }, MUTES_POLL_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async readOnce() {
    const rows = await this.store.activeOfKind("mute", new Date(this.ctx.clock.now()));
    const next = new Map<number, RestrictionRow>();
    for (const row of rows) {
      const held = next.get(row.userId);
      if (!held || endOf(row) > endOf(held)) next.set(row.userId, row);
    }
    const previous = this.mutes;
    const known = this.known;
    this.mutes = next;
    this.known = new Set(rows.map((row) => row.id));
    if (known) this.announce(previous, next, known);
  }

  /** New mutes and lifted ones, to the member's sockets on this process (each process tells its own). */
  private announce(previous: Map<number, RestrictionRow>, next: Map<number, RestrictionRow>, known: Set<number>) {
    const io = this.io;
    if (!io) return;
    for (const [userId, mute] of next) {
      if (known.has(mute.id) || !mute.endsAt) continue;
      io.local.to(`user:${userId}`).emit("moderation:muted", {
        until: mute.endsAt.toISOString(),
        reason: mute.reason,
        detail: MODERATION_MSG.mutedChat(mute.endsAt.getTime(), mute.reason),
      });
    }
    for (const userId of previous.keys()) {
      if (!next.has(userId)) io.local.to(`user:${userId}`).emit("moderation:unmuted", {});
    }
  }
}

const endOf = (row: RestrictionRow) => row.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * After this process changed a mute or the profanity list: a server reads it now (its local sockets told before the
 * answer), then tells the others; the CLI, which holds no mute book, reads its own list and tells the others.
 */
export async function moderationChanged(ctx: ModuleContext) {
  const book = muteBookOf(ctx);
  if (book) return book.changed();
  await profanityBookOf(ctx).read();
  await publishChange(ctx);
}

/**
 * Tells the other processes that the restrictions changed (Redis), so they read them now. Used by the CLI too,
 * which holds no mute book; without Redis the servers' poll finds its change within `MUTES_POLL_MS`.
 */
export async function publishChange(ctx: ModuleContext, origin = "cli") {
  await ctx.cluster?.redis.publish(channelOf(ctx), origin).catch((error) => {
    ctx.log.warn("moderation change not published", { error: String(error) });
  });
}

const books = new WeakMap<ModuleContext, MuteBook>();

/** This server's mute book (`onBoot` starts it); undefined in the CLI. */
export const muteBookOf = (ctx: ModuleContext) => books.get(ctx);

export async function startMuteBook(ctx: ModuleContext) {
  await books.get(ctx)?.stop();
  const book = new MuteBook(ctx);
  books.set(ctx, book);
  await book.start();
  return book;
}

export async function stopMuteBook(ctx: ModuleContext) {
  const book = books.get(ctx);
  books.delete(ctx);
  await book?.stop();
}
