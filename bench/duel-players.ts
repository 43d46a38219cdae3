/**
 * A scripted /duel player, shared by the duel benchmarks (duel-load.ts, watchers-load.ts). It behaves like the
 * /duel page: enters the menu (and so gets the coalesced online list), heartbeats every 5 s, searches, says ready on
 * `duel:match_found`, and while the duel is in progress types a word every 1–2 s: a block coming at it when there
 * is one (80 %), else a static block, and now and then (5 %) a word that is not on the field. After `duel:game_over`
 * it does what the page does (the list at 0.3 s and at 1 s, a forced update at 1 s), then plays again after
 * 1.5–4 s (leave, then search 0.3 s later).
 *
 * It counts into its benchmark's window metrics (`DuelCounters`): every frame it receives, the word latency
 * (`duel_word_typed` → its own `duel:bullet_fired` or `duel:block_defended` for that block) and the lateness of
 * `duel:time_update` (when it arrives − the second it marks, from the game's `started_at`; one clock, the same
 * machine).
 */
import { DEFAULT_DUEL_RULES } from "../modules/duel/duel-mode";
import { eachConcurrently, type Samples, type WindowMetrics } from "./measure";
import { ProtocolClient, payloadOf } from "./protocol-client";

const DURATION_MS = DEFAULT_DUEL_RULES.durationMs;
const JUNK_WORD = "없는낱말";
const now = () => performance.now();
const uniform = (low: number, high: number) => low + Math.random() * (high - low);

/** What the players count, in their benchmark's measurement window. */
export interface DuelCounters extends WindowMetrics {
  wordsSent: number;
  wordsAnswered: number;
  wordLatency: Samples;
  timeLateness: Samples;
  /** Duels started and ended in the window (counted by the red side), and the ends' reasons. */
  duelsStarted: number;
  duelsOver: number;
  reasons: Map<string, number>;
}

export interface DuelPlayerHooks {
  /** The metrics of the window now (a benchmark with several windows hands out each in turn). */
  metrics(): DuelCounters;
  /** The player was matched into duel `sessionId`. */
  matched?(player: DuelPlayer, sessionId: string): void;
  /** The player typed the word of block `blockId` (its side fires or defends that block). */
  typed?(player: DuelPlayer, blockId: number, sentAt: number): void;
}

interface BlockSeen {
  word: string;
  status: string;
}

export interface DuelPlayer {
  index: number;
  client: ProtocolClient;
  side: "red" | "blue" | null;
  session: string | null;
  playing: boolean;
  /** Epoch ms of the duel's start (`started_at`), for the lateness of its time updates. */
  startedAt: number;
  blocks: Map<number, BlockSeen>;
  pending: { blockId: number; sentAt: number } | null;
  timers: Timer[];
  hooks: DuelPlayerHooks;
}

export interface BlockWire {
  id: number;
  word: string;
  status: string;
}

/** A guest `bench-duelist-NNNNNN`, not yet connected. */
export function makeDuelPlayer(index: number, port: number, hooks: DuelPlayerHooks): DuelPlayer {
  const player: DuelPlayer = {
    index,
    client: undefined as never,
    side: null,
    session: null,
    playing: false,
    startedAt: 0,
    blocks: new Map(),
    pending: null,
    timers: [],
    hooks,
  };
  player.client = new ProtocolClient({
    url: `http://127.0.0.1:${port}`,
    auth: { client_id: `bench-duelist-${index.toString().padStart(6, "0")}` },
    onEvent: (name, frame, at) => onPlayerEvent(player, name, frame, at),
    onClose: () => {
      const m = hooks.metrics();
      if (m.recording) m.closedUnexpectedly++;
    },
  });
  return player;
}

function later(player: DuelPlayer, ms: number, run: () => void) {
  player.timers.push(setTimeout(run, ms));
}

export function clearTimers(player: DuelPlayer) {
  for (const timer of player.timers) clearTimeout(timer);
  player.timers = [];
}

export function countDelivery(m: WindowMetrics, name: string, chars: number, at: number) {
  if (!m.inWindow(at)) return;
  m.delivered++;
  m.deliveredChars += chars;
  m.count(m.byEvent, name);
}

function onPlayerEvent(player: DuelPlayer, name: string, frame: string, at: number) {
  const m = player.hooks.metrics();
  countDelivery(m, name, frame.length, at);
  // The online list is the largest frame and the generator needs nothing from it: never parsed.
  if (name === "duel:user_list_update") return;
  const payload = payloadOf(frame) as Record<string, unknown>;
  if (name === "error") {
    if (m.recording) m.count(m.errors, String(payload.code));
    return;
  }
  if (name === "duel:match_found") {
    player.session = payload.session_id as string;
    player.side = payload.your_side as "red" | "blue";
    player.client.emit("duel_player_ready", {});
    player.hooks.matched?.(player, player.session);
    return;
  }
  if (payload.session_id !== player.session) return;
  onDuelEvent(player, name, payload, at, m);
}

function onDuelEvent(player: DuelPlayer, name: string, payload: Record<string, unknown>, at: number, m: DuelCounters) {
  switch (name) {
    case "duel:game_start": {
      const state = payload.state as { word_blocks: BlockWire[]; started_at: string };
      player.blocks = new Map(state.word_blocks.map((b) => [b.id, { word: b.word, status: b.status }]));
      player.startedAt = Date.parse(state.started_at);
      player.playing = true;
      if (m.inWindow(at) && player.side === "red") m.duelsStarted++;
      scheduleWord(player);
      return;
    }
    case "duel:word_position_update": {
      const block = player.blocks.get(payload.block_id as number);
      if (block) block.status = payload.status as string;
      return;
    }
    case "duel:bullet_fired": {
      const bullet = payload.bullet as { side: string; target_block_id: number };
      if (bullet.side === player.side) answered(player, bullet.target_block_id, at, m);
      return;
    }
    case "duel:block_defended":
      if (payload.side === player.side) answered(player, payload.block_id as number, at, m);
      replaceBlocks(player, payload.block_id as number, payload.new_blocks as BlockWire[]);
      return;
    case "duel:new_word":
      replaceBlocks(player, payload.replaced_block_id as number, payload.word_blocks as BlockWire[]);
      return;
    case "duel:time_update":
      if (m.inWindow(at)) m.timeLateness.push(timeUpdateLateness(player.startedAt, payload.remaining_time as number));
      return;
    case "duel:game_over":
      gameOver(player, payload.result as { reason: string }, at, m);
      return;
  }
}

/** How late a `duel:time_update` arrives: now − the second it marks (the duel's start + the time gone). */
export const timeUpdateLateness = (startedAt: number, remainingSeconds: number) =>
  Date.now() - (startedAt + DURATION_MS - remainingSeconds * 1000);

function replaceBlocks(player: DuelPlayer, goneId: number, fresh: BlockWire[]) {
  player.blocks.delete(goneId);
  for (const b of fresh) player.blocks.set(b.id, { word: b.word, status: b.status });
}

function answered(player: DuelPlayer, blockId: number, at: number, m: DuelCounters) {
  const pending = player.pending;
  if (!pending || pending.blockId !== blockId) return;
  player.pending = null;
  if (m.inWindow(pending.sentAt)) {
    m.wordsAnswered++;
    m.wordLatency.push(at - pending.sentAt);
  }
}

function scheduleWord(player: DuelPlayer) {
  later(player, uniform(1000, 2000), () => {
    if (!player.playing) return;
    typeWord(player);
    scheduleWord(player);
  });
}

/** A block coming at the player (80 % when there is one), else a static one; 5 % of words miss the field. */
function typeWord(player: DuelPlayer) {
  const m = player.hooks.metrics();
  const incoming = player.side === "red" ? "moving_left" : "moving_right";
  const coming: [number, BlockSeen][] = [];
  const still: [number, BlockSeen][] = [];
  for (const entry of player.blocks) {
    if (entry[1].status === incoming) coming.push(entry);
    else if (entry[1].status === "static") still.push(entry);
  }
  const pool = coming.length > 0 && (Math.random() < 0.8 || still.length === 0) ? coming : still;
  const target = Math.random() < 0.05 || pool.length === 0 ? null : pool[Math.floor(Math.random() * pool.length)];
  const sentAt = now();
  // Told before the word goes: whoever follows the word's effect elsewhere knows of it before it can arrive.
  if (target) player.hooks.typed?.(player, target[0], sentAt);
  if (!player.client.emit("duel_word_typed", { typed_word: target ? target[1].word : JUNK_WORD })) return;
  player.pending = target ? { blockId: target[0], sentAt } : null;
  if (target && m.inWindow(sentAt)) m.wordsSent++;
}

/** What the /duel page does after the end (refreshes at 0.3 s and 1 s), then a player who plays again. */
function gameOver(player: DuelPlayer, result: { reason: string }, at: number, m: DuelCounters) {
  player.playing = false;
  player.pending = null;
  clearTimers(player);
  if (m.inWindow(at) && player.side === "red") {
    m.duelsOver++;
    m.count(m.reasons, result.reason);
  }
  const listAck = (answer: unknown, receivedAt: number) =>
    countDelivery(player.hooks.metrics(), "ack:duel_get_online_users", JSON.stringify(answer).length, receivedAt);
  later(player, 300, () => player.client.emitWithAck("duel_get_online_users", {}, listAck));
  later(player, 1000, () => {
    player.client.emitWithAck("duel_get_online_users", {}, listAck);
    player.client.emit("duel_update_user_list_force", {});
  });
  later(player, uniform(1500, 4000), () => {
    player.client.emit("duel_leave_game", {});
    player.session = null;
    later(player, 300, () => player.client.emit("duel_find_match", {}));
  });
}

/** Connects the players `concurrency` at a time; each enters the menu and searches within `searchSpreadMs`. */
export function connectDuelPlayers(players: DuelPlayer[], concurrency: number, searchSpreadMs: number) {
  return eachConcurrently(players, concurrency, async (player) => {
    await player.client.connect();
    player.client.emit("duel_enter_menu", {});
    later(player, uniform(0, searchSpreadMs), () => player.client.emit("duel_find_match", {}));
  });
}

/** Every player sends `duel_heartbeat` every 5 s, spread evenly over the 5 s. */
export function startHeartbeats(players: DuelPlayer[]) {
  const slices = 50;
  let slice = 0;
  const timer = setInterval(() => {
    for (let i = slice; i < players.length; i += slices)
      players[i].client.emit("duel_heartbeat", { timestamp: Date.now() });
    slice = (slice + 1) % slices;
  }, 5_000 / slices);
  return () => clearInterval(timer);
}
