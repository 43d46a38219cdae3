/**
 * watchers-load.ts's room. Players (the generator): 20 guests racing the room's rounds as rooms-load.ts's players
 * with `--progress 1` do (room-traffic.ts), typing without mistakes so that every new character moves their lane and
 * the frame showing it can be found. Watchers (the crowd process): guests in the same room with `spectate: true`
 * (rooms README "Spectators"), chatting now and then. Sampled at both: chat, submissions and lanes (bench/README
 * "Watchers (issue 27)").
 */
import { correctPrefixShare, roundProgress } from "../modules/kernel/race-steps";
import { payloadOf } from "./protocol-client";
import { chatSentAt, planAnswer, startSpreadTicker, type Typing, timedChatLine, typedSoFar } from "./room-traffic";
import {
  CrowdChat,
  type CrowdMember,
  connectCrowd,
  crowdMember,
  fromEpoch,
  guestId,
  MetricsSlot,
  type News,
  PhaseMetrics,
  type PlayersScene,
  toEpoch,
  WatcherCrowd,
  type WatchersOptions,
} from "./watchers-scene";

const now = () => performance.now();

const PLAYER_LATENCIES = ["players.chat", "players.submission", "players.lanes"] as const;
const WATCHER_LATENCIES = ["watchers.chat", "watchers.submission", "watchers.lanes"] as const;

interface GameStatePayload {
  status: string;
  sentence: { id: number; text: string } | null;
  started_at: string | null;
  game_duration: number;
}

interface LaneWire {
  key: number | string;
  progress: number;
}

// --- lanes: which steps a frame shows ----------------------------------------------------------------------------

/** A racer's steps of one round that moved its lane: the progress each showed and when it was sent. */
interface StepLog {
  round: string;
  progress: number[];
  sentAt: number[];
}

/** Someone reading lane frames: the round its socket saw start, and how far into each racer's steps it has seen. */
interface LaneReader {
  /** `started_at` of the round (`game:state` in_progress, or the join's game state). */
  round: string | null;
  cursors: Map<string, { log: StepLog; next: number }>;
}

/** Every racer's logged steps of its round, and for a reader the steps a frame shows that it had not seen yet. */
class LaneBook {
  private readonly logs = new Map<string, StepLog>();

  add(racer: string, round: string, progress: number, sentAt: number) {
    let log = this.logs.get(racer);
    if (log?.round !== round) {
      log = { round, progress: [], sentAt: [] };
      this.logs.set(racer, log);
    }
    if (progress > (log.progress.at(-1) ?? 0)) {
      log.progress.push(progress);
      log.sentAt.push(sentAt);
    }
  }

  /** `read` of a `game:progress_update` frame; `seen` only for steps sent inside `m`'s window. */
  readFrame(reader: LaneReader, frame: string, self: string | null, seen: (sentAt: number) => void, m: PhaseMetrics) {
    const { participants } = payloadOf(frame) as { participants: LaneWire[] };
    return this.read(reader, participants, self, (sentAt) => {
      if (m.inWindow(sentAt)) seen(sentAt);
    });
  }

  /**
   * Each lane of the frame shows its racer's steps up to its progress: `seen(sentAt)` for each one the reader had
   * not seen (its own lane, `self`, is no news to it; a frame of another round than the reader's is not this one's).
   * Answers how many lanes showed more than the book knows (a step's news late).
   */
  read(reader: LaneReader, lanes: LaneWire[], self: string | null, seen: (sentAt: number) => void) {
    let ahead = 0;
    for (const lane of lanes) {
      const racer = String(lane.key);
      const log = this.logs.get(racer);
      if (racer === self || !log || log.round !== reader.round) continue;
      let cursor = reader.cursors.get(racer);
      if (cursor?.log !== log) {
        cursor = { log, next: 0 };
        reader.cursors.set(racer, cursor);
      }
      while (cursor.next < log.progress.length && log.progress[cursor.next] <= lane.progress) {
        seen(log.sentAt[cursor.next++]);
      }
      if (lane.progress > (log.progress.at(-1) ?? 0)) ahead++;
    }
    return ahead;
  }
}

let chatSequence = 0;

/** A timed chat line to the room (its time as epoch ms: it is read in the other process too). */
function sayInRoom(member: CrowdMember, roomId: number, sentAt: number, m: PhaseMetrics) {
  const message = timedChatLine(chatSequence++, toEpoch(sentAt));
  if (member.client.emit("chat_message", { room_id: roomId, message }) && m.inWindow(sentAt)) m.chatLines++;
}

/** The round a `game:state` in_progress or a join's game state starts, if any. */
const roundOf = (state: GameStatePayload) => (state.status === "in_progress" ? String(state.started_at) : null);

// --- players (the generator) -------------------------------------------------------------------------------------

interface Racer extends CrowdMember, LaneReader {
  sessionId: string;
  /** The round it types (its steps' log is the book's). */
  typingRound: string | null;
  sentence: string;
  typing: Typing | null;
  submitTimer: Timer | null;
  /** The round's submission: when it was sent, and whether its own `game:submission_complete` came. */
  submittedAt: number | null;
  answered: boolean;
}

export interface RoomPlayersOptions {
  port: number;
  roomId: number;
  players: number;
  chatRatePerPlayer: number;
  stepMs: number;
  connectConcurrency: number;
}

export class RoomPlayers implements PlayersScene {
  readonly name = "room";
  readonly latencies = PLAYER_LATENCIES;
  readonly watcherLatencies = WATCHER_LATENCIES;
  readonly metrics = new MetricsSlot(() => new PhaseMetrics(PLAYER_LATENCIES));
  private readonly racers: Racer[] = [];
  private readonly book = new LaneBook();
  private tell: (news: News) => void = () => {};
  private stops: (() => void)[] = [];

  constructor(private readonly options: RoomPlayersOptions) {}

  get playerCount() {
    return this.options.players;
  }

  async start(tell: (news: News) => void) {
    this.tell = tell;
    for (let i = 0; i < this.options.players; i++) {
      const fields = { sessionId: "", round: null, cursors: new Map(), typingRound: null, sentence: "" };
      const racer = { ...fields, typing: null, submitTimer: null, submittedAt: null, answered: false };
      this.racers.push(
        crowdMember<Racer>(racer, {
          port: this.options.port,
          clientId: guestId("bench-player", i),
          onEvent: (member) => (name, frame, at) => this.onEvent(member, name, frame, at),
          metrics: () => this.m,
        }),
      );
    }
    const joined = await connectCrowd(this.racers, this.options.connectConcurrency, (racer) =>
      racer.client.emit("join_anonymous", { room_id: this.options.roomId }),
    );
    console.log(`  players joined: ${joined}/${this.options.players}`);
    const chat = new CrowdChat(
      this.options.chatRatePerPlayer,
      () => this.racers,
      (racer, sentAt) => this.chat(racer, sentAt),
      () => this.m.count(this.m.sent, "chat_skipped"),
    );
    chat.restart();
    const steps = startSpreadTicker(
      this.options.stepMs,
      () => this.racers.length,
      (i, t) => this.step(this.racers[i], t),
    );
    this.stops.push(() => chat.stop(), steps);
  }

  stop() {
    for (const stop of this.stops) stop();
    for (const racer of this.racers) {
      if (racer.submitTimer) clearTimeout(racer.submitTimer);
      racer.leaving = true;
      racer.client.close();
    }
  }

  private get m() {
    return this.metrics.current;
  }

  playersPresent() {
    return this.racers.filter((r) => r.inGame).length;
  }

  /** chat:message goes to the whole room, the sender included, whoever sent it. */
  chatExpected(lines: { players: number; watchers: number }, present: { players: number; watchers: number }) {
    return (lines.players + lines.watchers) * (present.players + present.watchers);
  }

  extra(m: PhaseMetrics) {
    return { sent: Object.fromEntries(m.sent) };
  }

  private chat(racer: Racer, sentAt: number) {
    sayInRoom(racer, this.options.roomId, sentAt, this.m);
  }

  /** A racer's answer box, 10 times a second while it types. */
  private step(racer: Racer, t: number) {
    if (racer.typing) this.sendStep(racer, typedSoFar(racer.typing, t), t);
  }

  /** A step, into the book (and told to the crowd) before it is sent: nobody can see it before they know of it. */
  private sendStep(racer: Racer, text: string, sentAt: number) {
    if (this.m.inWindow(sentAt)) this.m.count(this.m.sent, "steps");
    if (racer.typingRound) {
      const progress = roundProgress(correctPrefixShare(text, racer.sentence));
      this.book.add(racer.sessionId, racer.typingRound, progress, sentAt);
      const round = racer.typingRound;
      this.tell({ type: "step", racer: racer.sessionId, round, progress, sentAt: toEpoch(sentAt) });
    }
    racer.client.emit("game:progress", { room_id: this.options.roomId, typed_text: text });
  }

  private startRound(racer: Racer, state: GameStatePayload & { sentence: { id: number; text: string } }) {
    const round = String(state.started_at);
    if (racer.typingRound === round) return;
    racer.typingRound = round;
    racer.sentence = state.sentence.text;
    racer.submittedAt = null;
    racer.answered = false;
    const plan = planAnswer(state.sentence.text, Number(state.game_duration), false);
    racer.typing = plan.typing;
    if (racer.submitTimer) clearTimeout(racer.submitTimer);
    racer.submitTimer = setTimeout(() => this.submit(racer, state.sentence.id, plan), plan.delayMs);
  }

  private submit(racer: Racer, sentenceId: number, plan: { answer: string; delayMs: number }) {
    const { roomId } = this.options;
    racer.submitTimer = null;
    // The last step is the answer, as the web's ProgressSender flushes it before submitting.
    racer.typing = null;
    this.sendStep(racer, plan.answer, now());
    const sentAt = now();
    racer.submittedAt = sentAt;
    this.tell({ type: "submitted", racer: racer.sessionId, sentAt: toEpoch(sentAt) });
    const answer = { room_id: roomId, sentence_id: sentenceId, typed_text: plan.answer };
    if (!racer.client.emit("game:submission", { ...answer, elapsed_time: Math.round(plan.delayMs) / 1000 })) return;
    if (this.m.inWindow(sentAt)) this.m.count(this.m.sent, "submissions");
  }

  private onEvent(racer: Racer, name: string, frame: string, at: number) {
    const m = this.m;
    m.frame(name, at);
    switch (name) {
      case "chat:message":
        return m.chatLine("players.chat", chatSentAt(frame), at);
      case "game:progress_update":
        this.book.readFrame(racer, frame, racer.sessionId, (sentAt) => m.sample("players.lanes", at - sentAt), m);
        return;
      case "game:submission_complete":
        if (racer.submittedAt === null || racer.answered || !frame.includes(`"session_id":"${racer.sessionId}"`))
          return;
        racer.answered = true;
        if (m.inWindow(racer.submittedAt)) m.sample("players.submission", at - racer.submittedAt);
        return;
      case "game:state": {
        if (!frame.includes('"status":"in_progress"')) return;
        const state = payloadOf(frame) as GameStatePayload;
        racer.round = roundOf(state);
        if (state.sentence) this.startRound(racer, { ...state, sentence: state.sentence });
        return;
      }
      case "room:joined:anonymous": {
        const joined = payloadOf(frame) as { session_id: string; game_state: GameStatePayload };
        racer.sessionId = joined.session_id;
        racer.inGame = true;
        racer.round = roundOf(joined.game_state);
        return;
      }
      case "error":
        m.error(payloadOf(frame) as { event?: string; code?: string } | null);
        return;
    }
  }
}

// --- watchers (the crowd process) --------------------------------------------------------------------------------

interface Spectator extends CrowdMember, LaneReader {}

export class RoomWatchers extends WatcherCrowd<Spectator> {
  private readonly roomId: number;
  /** Lane frames that showed more than the crowd had been told, by window. */
  private readonly ahead = new WeakMap<PhaseMetrics, number>();
  private readonly book = new LaneBook();
  /** Each racer's last submission (its send time, this process's clock). */
  private readonly submitted = new Map<string, number>();

  constructor(options: WatchersOptions & { roomId: number }) {
    super(WATCHER_LATENCIES, options);
    this.roomId = options.roomId;
  }

  protected fields() {
    return { round: null, cursors: new Map() };
  }

  protected enter(watcher: Spectator) {
    watcher.client.emit("join_anonymous", { room_id: this.roomId, spectate: true });
  }

  protected leave(watcher: Spectator) {
    watcher.client.emit("leave_room", { room_id: this.roomId });
  }

  protected say(watcher: Spectator, sentAt: number) {
    sayInRoom(watcher, this.roomId, sentAt, this.m);
  }

  news(news: News) {
    if (news.type === "step") this.book.add(news.racer, news.round, news.progress, fromEpoch(news.sentAt));
    else if (news.type === "submitted") this.submitted.set(news.racer, fromEpoch(news.sentAt));
  }

  override aheadOfNews(m: PhaseMetrics) {
    return this.ahead.get(m) ?? 0;
  }

  protected onEvent(watcher: Spectator, name: string, frame: string, at: number) {
    const m = this.m;
    m.frame(name, at);
    switch (name) {
      case "chat:message":
        return m.chatLine("watchers.chat", chatSentAt(frame), at);
      case "game:progress_update": {
        const ahead = this.book.readFrame(watcher, frame, null, (sentAt) => m.sample("watchers.lanes", at - sentAt), m);
        if (m.inWindow(at)) this.ahead.set(m, (this.ahead.get(m) ?? 0) + ahead);
        return;
      }
      case "game:submission_complete": {
        const field = '"session_id":"';
        const start = frame.indexOf(field) + field.length;
        const sentAt = this.submitted.get(frame.slice(start, frame.indexOf('"', start)));
        if (sentAt !== undefined && m.inWindow(sentAt)) m.sample("watchers.submission", at - sentAt);
        return;
      }
      case "game:state":
        if (frame.includes('"status":"in_progress"')) watcher.round = roundOf(payloadOf(frame) as GameStatePayload);
        return;
      case "room:joined:anonymous":
        watcher.inGame = true;
        watcher.round = roundOf((payloadOf(frame) as { game_state: GameStatePayload }).game_state);
        return;
      case "error":
        m.error(payloadOf(frame) as { event?: string; code?: string } | null);
        return;
    }
  }
}
