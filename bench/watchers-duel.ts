/**
 * watchers-load.ts's duel. Players (the generator): two guests playing duels back to back as duel-load.ts's players
 * do (duel-players.ts); sampled: the word latency (`duel_word_typed` → the typist's own `duel:bullet_fired` /
 * `duel:block_defended`) and the lateness of `duel:time_update`. Watchers (the crowd process): guests watching the
 * pair's duel (duel README "Watching"). A duel lasts at most 60 s, so the watchers follow the pair: when the players
 * are matched again, every watcher asks for the new duel (`duel_watch`), as a page following the pair would; those
 * arrivals fall into the ready and countdown seconds, before any word is typed. Sampled at the watchers: the same
 * events (a word → its bullet or defence), the same lateness, their chat (`duel_watch_chat` → `duel:watch_chat` at
 * every watcher, only while the duel is played) and their arrival (`duel_watch` → `duel:watch_state`).
 */
import {
  clearTimers,
  connectDuelPlayers,
  type DuelCounters,
  type DuelPlayer,
  makeDuelPlayer,
  startHeartbeats,
  timeUpdateLateness,
} from "./duel-players";
import { payloadOf } from "./protocol-client";
import { timedChatLine, timedLineSentAt } from "./room-traffic";
import {
  type CrowdMember,
  fromEpoch,
  MetricsSlot,
  type News,
  PhaseMetrics,
  type PlayersScene,
  toEpoch,
  WatcherCrowd,
  type WatchersOptions,
} from "./watchers-scene";

const now = () => performance.now();

const PLAYER_LATENCIES = ["players.word", "players.time"] as const;
const WATCHER_LATENCIES = ["watchers.word", "watchers.time", "watchers.chat", "watchers.arrival"] as const;

type Side = "red" | "blue";

// --- players (the generator) -------------------------------------------------------------------------------------

/** A phase of the duel: the players count into it as into duel-load's run (its word and time samples). */
class DuelPhaseMetrics extends PhaseMetrics implements DuelCounters {
  wordsSent = 0;
  wordsAnswered = 0;
  wordLatency = this.latency.get("players.word")!;
  timeLateness = this.latency.get("players.time")!;
  duelsStarted = 0;
  duelsOver = 0;
  reasons = new Map<string, number>();
}

export class DuelPlayers implements PlayersScene {
  readonly name = "duel";
  readonly latencies = PLAYER_LATENCIES;
  readonly watcherLatencies = WATCHER_LATENCIES;
  readonly playerCount = 2;
  readonly metrics = new MetricsSlot(() => new DuelPhaseMetrics(PLAYER_LATENCIES));
  private players: DuelPlayer[] = [];
  private session: string | null = null;
  private stopHeartbeats = () => {};

  constructor(private readonly port: number) {}

  async start(tell: (news: News) => void) {
    this.players = [0, 1].map((i) =>
      makeDuelPlayer(i, this.port, {
        metrics: () => this.metrics.current,
        matched: (_player, session) => {
          if (session === this.session) return;
          this.session = session;
          tell({ type: "duel", session });
        },
        typed: (player, blockId, sentAt) => {
          if (!player.side || !player.session) return;
          tell({ type: "word", side: player.side, session: player.session, blockId, sentAt: toEpoch(sentAt) });
        },
      }),
    );
    const failed = await connectDuelPlayers(this.players, 2, 1000);
    this.stopHeartbeats = startHeartbeats(this.players);
    console.log(`  players connected: ${2 - failed}/2`);
  }

  stop() {
    this.stopHeartbeats();
    for (const player of this.players) {
      clearTimers(player);
      player.client.close();
    }
  }

  playersPresent() {
    return this.players.filter((p) => p.client.connected).length;
  }

  /** `duel:watch_chat` goes to the duel's watchers only (the sender included); the players do not chat. */
  chatExpected(lines: { players: number; watchers: number }, present: { players: number; watchers: number }) {
    return lines.watchers * present.watchers;
  }

  extra(m: PhaseMetrics) {
    const d = m as DuelPhaseMetrics;
    const words = { words_sent: d.wordsSent, words_answered: d.wordsAnswered };
    return { duels_started: d.duelsStarted, duels_over: d.duelsOver, reasons: Object.fromEntries(d.reasons), ...words };
  }
}

// --- watchers (the crowd process) --------------------------------------------------------------------------------

interface Watcher extends CrowdMember {
  /** The duel it asked to watch, and when. */
  session: string | null;
  askedAt: number;
  /** The watched duel's start (epoch ms), for the lateness of its time updates. */
  startedAt: number;
}

export class DuelWatchers extends WatcherCrowd<Watcher> {
  /** The pair's duel now, and whether it is being played (between its start and its end, as the watchers see). */
  private session: string | null = null;
  private live = false;
  /** Each side's last word that named a block (its send time, this process's clock). */
  private readonly lastWord = new Map<Side, { session: string; blockId: number; sentAt: number }>();

  constructor(options: WatchersOptions) {
    super(WATCHER_LATENCIES, options);
  }

  protected fields() {
    return { session: null, askedAt: 0, startedAt: 0 };
  }

  protected enter(watcher: Watcher) {
    this.watch(watcher);
  }

  protected leave(watcher: Watcher) {
    watcher.client.emit("duel_watch_leave", {});
  }

  /** A word's send time; a new duel, which every watcher follows the pair to. */
  news(news: News) {
    if (news.type === "word") {
      this.lastWord.set(news.side, { session: news.session, blockId: news.blockId, sentAt: fromEpoch(news.sentAt) });
    } else if (news.type === "duel" && news.session !== this.session) {
      this.session = news.session;
      for (const watcher of this.watchers) if (watcher.client.connected && !watcher.leaving) this.watch(watcher);
    }
  }

  private watch(watcher: Watcher) {
    if (!this.session) return; // no duel yet: the next match brings one
    watcher.session = this.session;
    watcher.askedAt = now();
    // A refusal comes as an `error` event (counted there).
    watcher.client.emit("duel_watch", { session_id: this.session });
  }

  /** A watcher's line, only while the duel is played (after it closed the line would be refused: not_watching). */
  protected say(watcher: Watcher, sentAt: number) {
    if (!this.live || watcher.session !== this.session) return;
    const message = timedChatLine(this.chatSequence++, toEpoch(sentAt));
    if (!watcher.client.emit("duel_watch_chat", { message })) return;
    if (this.m.inWindow(sentAt)) this.m.chatLines++;
  }

  protected onEvent(watcher: Watcher, name: string, frame: string, at: number) {
    const m = this.m;
    m.frame(name, at);
    if (name === "duel:watch_chat") return m.chatLine("watchers.chat", timedLineSentAt(frame), at);
    const payload = payloadOf(frame) as Record<string, unknown>;
    if (name === "error") return m.error(payload);
    if (payload.session_id !== watcher.session) return;
    switch (name) {
      case "duel:watch_state": {
        watcher.inGame = true;
        const { started_at, status } = payload.state as { started_at: string | null; status: string };
        if (started_at) watcher.startedAt = Date.parse(started_at);
        if (status === "in_progress" && watcher.session === this.session) this.live = true;
        if (m.inWindow(watcher.askedAt)) m.sample("watchers.arrival", at - watcher.askedAt);
        return;
      }
      case "duel:game_start":
        watcher.startedAt = Date.parse((payload.state as { started_at: string }).started_at);
        if (watcher.session === this.session) this.live = true;
        return;
      case "duel:game_over":
        if (watcher.session === this.session) this.live = false;
        return;
      case "duel:bullet_fired": {
        const bullet = payload.bullet as { side: Side; target_block_id: number };
        return this.wordSeen(bullet.side, bullet.target_block_id, at);
      }
      case "duel:block_defended":
        return this.wordSeen(payload.side as Side, payload.block_id as number, at);
      case "duel:time_update":
        if (m.inWindow(at) && watcher.startedAt > 0) {
          m.sample("watchers.time", timeUpdateLateness(watcher.startedAt, payload.remaining_time as number));
        }
        return;
    }
  }

  private wordSeen(side: Side, blockId: number, at: number) {
    const word = this.lastWord.get(side);
    if (!word || word.blockId !== blockId || word.session !== this.session || !this.m.inWindow(word.sentAt)) return;
    this.m.sample("watchers.word", at - word.sentAt);
  }
}
