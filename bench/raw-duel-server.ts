/**
 * The duel benchmark's baseline: the 1:1 duel with nothing but Bun's WebSocket pub/sub between the players and the
 * game. It plays the same pure mode as modules/duel (`duelMode`: the same blocks, speeds, edges and end rules) and
 * sends the same frames (`duelBroadcasts`, `gameOverPayload` of the duel's presenter), so bytes per delivered frame
 * are comparable:
 *
 *   duel_enter_menu → the menu topic (left while in a duel, as our server does); a coalesced
 *   `duel:user_list_update` (≤ 1/s) when the list changed;
 *   duel_get_online_users (ack) and duel_update_user_list_force answer the list; duel_find_match pairs the first two
 *   waiting players (first in, red) → `duel:match_found` to each; duel_player_ready / duel_word_typed → the mode;
 *   its effects → the duel's topic; duel_leave_game → out of the duel (a forfeit before the end).
 *
 * What it leaves out on purpose: validation beyond JSON shape, rate limits, ratings, heartbeats' sweep, the game
 * host (one plain timer per duel at the mode's next event), persistence. Env: PORT (0 = any), HOST (127.0.0.1).
 * Prints `BENCH_READY {"port":…,"rooms":[]}` once listening.
 */

import {
  DEFAULT_DUEL_RULES,
  type DuelEffect,
  type DuelPlayer,
  type DuelState,
  duelMode,
  sideOf,
} from "../modules/duel/duel-mode";
import { duelBroadcasts, gameOverPayload } from "../modules/duel/presenter";
import { createRandom } from "../modules/kernel/clock";
import { collectOnSignal, startLagLog } from "./lag-log";
import { frame, type RawWs, serveRawSocketIo } from "./raw-socket-io";

const HOST = process.env.HOST ?? "127.0.0.1";
const PORT = Number(process.env.PORT ?? 0);
const LIST_EVERY_MS = 1_000;
const LIST_LIMIT = 100;
const STATUS_ORDER = { waiting: 0, idle: 1, in_game: 2 } as const;
type Status = keyof typeof STATUS_ORDER;

interface PlayerExtra {
  inMenu: boolean;
  status: Status;
  duel: Duel | null;
}
type Ws = RawWs<PlayerExtra>;

interface Duel {
  topic: string;
  state: DuelState;
  sockets: Map<string, Ws>;
  timer: Timer | null;
}

const random = createRandom();
const context = () => ({ now: Date.now(), random });
const menu = new Set<Ws>();
const queue: Ws[] = [];
let listTimer: Timer | null = null;
let cachedList: { sid: string; nickname: string; status: Status; is_me: boolean }[] | null = null;

const raw = serveRawSocketIo<PlayerExtra>({
  host: HOST,
  port: PORT,
  extra: () => ({ inMenu: false, status: "idle", duel: null }),
  onEvent,
  onClose: (ws) => {
    leaveDuel(ws);
    dropFromQueue(ws);
    if (menu.delete(ws)) listChanged();
  },
});
const server = raw.server;

const playerOf = (ws: Ws): DuelPlayer => ({
  id: ws.data.sessionId,
  name: ws.data.nickname,
  userId: null,
  key: ws.data.sessionId,
});

// --- the online list -------------------------------------------------------------------------------------------

function sortedList() {
  if (!cachedList) {
    cachedList = [...menu]
      .sort(
        (a, b) =>
          STATUS_ORDER[a.data.status] - STATUS_ORDER[b.data.status] || a.data.nickname.localeCompare(b.data.nickname),
      )
      .map((ws) => ({ sid: ws.data.sessionId, nickname: ws.data.nickname, status: ws.data.status, is_me: false }));
  }
  return cachedList;
}

function listFor(me: Ws | null) {
  const all = sortedList();
  let users = all.slice(0, LIST_LIMIT);
  if (me) {
    const mine = { sid: me.data.sessionId, nickname: me.data.nickname, status: me.data.status, is_me: true };
    users = [mine, ...users.filter((u) => u.sid !== mine.sid)].slice(0, LIST_LIMIT);
  }
  return { users, waiting_count: queue.length, online_count: all.length, my_sid: me?.data.sessionId ?? null };
}

function listChanged() {
  cachedList = null;
  if (listTimer) return;
  listTimer = setTimeout(() => {
    listTimer = null;
    if (menu.size > 0) server.publish("menu", frame("duel:user_list_update", listFor(null)));
  }, LIST_EVERY_MS);
}

function setStatus(ws: Ws, status: Status) {
  ws.data.status = status;
  if (ws.data.inMenu) listChanged();
}

// --- matchmaking and duels -------------------------------------------------------------------------------------

function findMatch(ws: Ws) {
  if (ws.data.duel && ws.data.duel.state.status !== "finished") return;
  if (ws.data.duel) leaveDuel(ws);
  if (queue.includes(ws)) return;
  queue.push(ws);
  setStatus(ws, "waiting");
  while (queue.length >= 2) {
    const red = queue.shift() as Ws;
    const blue = queue.shift() as Ws;
    startDuel(red, blue);
  }
}

function dropFromQueue(ws: Ws) {
  const at = queue.indexOf(ws);
  if (at < 0) return;
  queue.splice(at, 1);
  setStatus(ws, "idle");
}

function startDuel(red: Ws, blue: Ws) {
  const sessionId = crypto.randomUUID();
  const settings = { sessionId, red: playerOf(red), blue: playerOf(blue), rules: DEFAULT_DUEL_RULES };
  let state = duelMode.setup(settings, context());
  const duel: Duel = { topic: `duel:${sessionId}`, state, sockets: new Map(), timer: null };
  for (const ws of [red, blue]) {
    ws.data.duel = duel;
    duel.sockets.set(ws.data.sid, ws);
    ws.subscribe(duel.topic);
    ws.unsubscribe("menu"); // as our server: no list pushes while in a duel
    state = duelMode.onPlayerJoin(state, playerOf(ws)).state;
    setStatus(ws, "in_game");
  }
  duel.state = state;
  for (const [ws, opponent] of [
    [red, blue],
    [blue, red],
  ]) {
    ws.send(
      frame("duel:match_found", {
        session_id: sessionId,
        your_side: ws === red ? "red" : "blue",
        opponent_nickname: opponent.data.nickname,
        opponent_sid: opponent.data.sessionId,
      }),
    );
  }
  schedule(duel);
}

function apply(duel: Duel, next: { state: DuelState; effects: DuelEffect[] }) {
  duel.state = next.state;
  const now = Date.now();
  for (const effect of next.effects) {
    if (effect.type === "over") {
      server.publish(duel.topic, frame("duel:game_over", gameOverPayload(duel.state, effect.result, false)));
      for (const ws of duel.sockets.values()) setStatus(ws, "idle");
    } else if (effect.type === "gone") {
      const stays = [...duel.sockets.values()].find((ws) => sideOf(duel.state, ws.data.sessionId) !== effect.side);
      const event = effect.how === "left" ? "duel:opponent_left" : "duel:opponent_disconnected";
      stays?.send(frame(event, { session_id: duel.state.sessionId, side: effect.side }));
    } else {
      for (const [event, payload] of duelBroadcasts(duel.state, effect, now))
        server.publish(duel.topic, frame(event, payload));
    }
  }
  schedule(duel);
}

/** One plain timer per duel at the mode's next event (the raw way; our server shares one scheduler). */
function schedule(duel: Duel) {
  if (duel.timer) clearTimeout(duel.timer);
  duel.timer = null;
  const at = duelMode.nextTickAt(duel.state);
  if (at === null || duel.state.status === "finished") return;
  duel.timer = setTimeout(() => apply(duel, duelMode.tick(duel.state, context())), Math.max(0, at - Date.now()));
}

function leaveDuel(ws: Ws) {
  const duel = ws.data.duel;
  if (!duel) return;
  ws.data.duel = null;
  duel.sockets.delete(ws.data.sid);
  ws.unsubscribe(duel.topic);
  if (ws.data.inMenu) ws.subscribe("menu");
  if (duel.state.status !== "finished") apply(duel, duelMode.onPlayerLeave(duel.state, ws.data.sessionId, context()));
  if (duel.sockets.size === 0 && duel.timer) clearTimeout(duel.timer);
  setStatus(ws, "idle");
}

function play(ws: Ws, move: { type: "ready" } | { type: "word"; word: string }) {
  const duel = ws.data.duel;
  if (!duel) return;
  const result = duelMode.move(duel.state, ws.data.sessionId, move, context());
  if (result.ok) apply(duel, result);
}

function onEvent(ws: Ws, name: string, payload: Record<string, unknown>, ack?: (answer: unknown) => void) {
  switch (name) {
    case "duel_enter_menu":
      ws.data.inMenu = true;
      menu.add(ws);
      if (!ws.data.duel) ws.subscribe("menu");
      ws.send(frame("duel:user_list_update", listFor(ws)));
      listChanged();
      return;
    case "duel_leave_menu":
      ws.data.inMenu = false;
      ws.unsubscribe("menu");
      if (menu.delete(ws)) listChanged();
      dropFromQueue(ws);
      return;
    case "duel_get_online_users":
      ack?.({ success: true, ...listFor(ws) });
      return;
    case "duel_update_user_list_force":
      ws.send(frame("duel:user_list_update", listFor(ws)));
      return;
    case "duel_find_match":
      findMatch(ws);
      ack?.({ success: true, status: "waiting", waiting_count: queue.length });
      return;
    case "duel_cancel_match":
      dropFromQueue(ws);
      return;
    case "duel_player_ready":
      play(ws, { type: "ready" });
      return;
    case "duel_word_typed":
      if (typeof payload.typed_word === "string") play(ws, { type: "word", word: payload.typed_word });
      return;
    case "duel_leave_game":
      leaveDuel(ws);
      return;
  }
}

startLagLog("baseline");
collectOnSignal();
console.log(`BENCH_READY ${JSON.stringify({ port: server.port, rooms: [] })}`);

const stop = () => {
  raw.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
