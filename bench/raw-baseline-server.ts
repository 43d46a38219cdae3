/**
 * The benchmark's baseline: the same fan-out as the rooms module with nothing but Bun's WebSocket pub/sub.
 * It speaks just enough of the socket.io wire format (engine.io "0{…}" open, "40" namespace connect, "2" pings,
 * "42[name,payload]" events) for the generator's protocol client, and sends the same events with the same payload
 * fields as modules/rooms, so bytes per delivered message are comparable:
 *
 *   join_anonymous → room:joined:anonymous (to the player), room:anonymous_joined, room:users_update and a system
 *   chat:message (to the room); chat_message → chat:message; the game loop of product-rules.md with the same
 *   timings (waiting 5 s → countdown 3-2-1 → in_progress, ends when everyone submitted or at game_duration with
 *   the 5-s end countdown → finished 5 s) and its game:state, countdown, problem, game:results and result-chat
 *   broadcasts; game:submission → scored with modules/kernel/typing.ts → game:submission_complete (room) and
 *   game:personal_feedback (player); game:progress → the step's figures (`progressAt` of modules/kernel/race-steps.ts)
 *   on a `LaneBoard` per room, the changed lanes sent as game:progress_update at most every 200 ms (one timer for
 *   every room, as the rooms share one scheduler), the lane of a submission completed with its place.
 *
 * What it leaves out on purpose: validation beyond JSON shape, rate limits, persistence, rewards, the lobby's
 * room list. Env: PORT (0 = any), HOST (default 127.0.0.1), BENCH_ROOMS (room ids 1..N, default 500).
 * Prints `BENCH_READY {"port":…}` once listening.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LaneBoard, type LaneFigures, progressAt } from "../modules/kernel/race-steps";
import { keystrokes, scoreTyping } from "../modules/kernel/typing";
import { collectOnSignal, startLagLog } from "./lag-log";
import { frame, iso, type RawIdentity, type RawWs, serveRawSocketIo } from "./raw-socket-io";

const HOST = process.env.HOST ?? "127.0.0.1";
const PORT = Number(process.env.PORT ?? 0);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 500);
const MAX_USERS = 20;
const WAIT_MS = 5_000;
const COUNTDOWN_SECONDS = 3;
const RESULTS_MS = 5_000;
const END_COUNTDOWN_SECONDS = 5;

const sentences: { id: number; text: string }[] = (
  JSON.parse(readFileSync(join(import.meta.dir, "../modules/rooms/data/sentences/free.json"), "utf8")) as string[]
).map((text, i) => ({ id: i + 1, text }));

interface PlayerExtra {
  joinedAt: string;
  room: Room | null;
}
type Player = RawIdentity & PlayerExtra;
type Ws = RawWs<PlayerExtra>;

interface Result {
  player: Player;
  wpm: number;
  accuracy: number;
  errorCount: number;
  completionTime: number;
  position: number | null;
}

interface Room {
  id: number;
  topic: string;
  members: Map<string, Ws>;
  status: "waiting" | "countdown" | "in_progress" | "finished";
  sentence: { id: number; text: string } | null;
  startedAt: number | null;
  gameDuration: number;
  nextGameAt: number | null;
  endsAt: number | null;
  countdownNumber: number;
  results: Result[];
  timers: Timer[];
  lanes: LaneBoard<string>;
  laneNames: Map<string, string>;
}

const rooms = new Map<number, Room>();
for (let id = 1; id <= ROOMS; id++) {
  rooms.set(id, {
    id,
    topic: `room:${id}`,
    members: new Map(),
    status: "waiting",
    sentence: null,
    startedAt: null,
    gameDuration: 10,
    nextGameAt: null,
    endsAt: null,
    countdownNumber: COUNTDOWN_SECONDS,
    results: [],
    timers: [],
    lanes: new LaneBoard(),
    laneNames: new Map(),
  });
}

const toRoom = (room: Room, event: string, payload: unknown) => server.publish(room.topic, frame(event, payload));

// --- game loop (same phases and timings as modules/rooms/sentence-race.ts) --------------------------------------

function later(room: Room, ms: number, run: () => void) {
  room.timers.push(setTimeout(run, Math.max(0, ms)));
}
function clearTimers(room: Room) {
  for (const timer of room.timers) clearTimeout(timer);
  room.timers = [];
}

function gameState(room: Room) {
  return {
    room_id: room.id,
    status: room.status,
    sentence: room.status === "in_progress" || room.status === "finished" ? room.sentence : null,
    started_at: iso(room.startedAt),
    game_duration: room.gameDuration,
    countdown_seconds: room.status === "countdown" ? room.countdownNumber : COUNTDOWN_SECONDS,
    next_game_at: iso(room.nextGameAt),
    ends_at: iso(room.endsAt),
    server_time: iso(Date.now()),
  };
}

function systemFields(room: Room, messageType: string) {
  return {
    room_id: room.id,
    user_id: null,
    username: "시스템",
    nickname: "시스템",
    is_anonymous: false,
    timestamp: iso(Date.now()),
    is_system: true,
    is_private: false,
    message_type: messageType,
  };
}

function toWaiting(room: Room) {
  clearTimers(room);
  room.status = "waiting";
  room.sentence = null;
  room.startedAt = null;
  room.endsAt = null;
  room.results = [];
  room.nextGameAt = room.members.size > 0 ? Date.now() + WAIT_MS : null;
  toRoom(room, "game:state", gameState(room));
  if (room.nextGameAt !== null) later(room, WAIT_MS, () => startCountdown(room));
}

function startCountdown(room: Room) {
  room.status = "countdown";
  room.nextGameAt = null;
  room.countdownNumber = COUNTDOWN_SECONDS;
  toRoom(room, "game:state", gameState(room));
  toRoom(room, "game:countdown_message", {
    room_id: room.id,
    message: `${COUNTDOWN_SECONDS}초 후 게임이 시작됩니다!`,
    seconds: COUNTDOWN_SECONDS,
  });
  for (let n = COUNTDOWN_SECONDS; n >= 1; n--) {
    later(room, (COUNTDOWN_SECONDS - n) * 1000, () => {
      room.countdownNumber = n;
      toRoom(room, "game:countdown_number", { room_id: room.id, number: n });
    });
  }
  later(room, COUNTDOWN_SECONDS * 1000, () => startGame(room));
}

function startGame(room: Room) {
  clearTimers(room);
  const sentence = sentences[Math.floor(Math.random() * sentences.length)];
  room.status = "in_progress";
  room.sentence = sentence;
  room.startedAt = Date.now();
  room.gameDuration = Math.min(60, Math.max(10, Math.ceil((keystrokes(sentence.text) / 200) * 60 + 5)));
  room.endsAt = room.startedAt + room.gameDuration * 1000;
  room.results = [];
  room.lanes.clear();
  room.laneNames.clear();
  toRoom(room, "game:state", gameState(room));
  toRoom(room, "chat:message", {
    ...systemFields(room, "problem"),
    message: sentence.text,
    sentence_id: sentence.id,
    game_duration: room.gameDuration,
  });
  const endCountdownAt = (room.gameDuration - END_COUNTDOWN_SECONDS) * 1000;
  later(room, endCountdownAt, () =>
    toRoom(room, "game:end_countdown_message", {
      room_id: room.id,
      message: `게임 종료까지 ${END_COUNTDOWN_SECONDS}초 남았습니다!`,
      seconds: END_COUNTDOWN_SECONDS,
    }),
  );
  for (let n = END_COUNTDOWN_SECONDS; n >= 1; n--) {
    later(room, endCountdownAt + (END_COUNTDOWN_SECONDS - n) * 1000, () =>
      toRoom(room, "game:end_countdown_number", { room_id: room.id, number: n }),
    );
  }
  later(room, room.gameDuration * 1000, () => finish(room));
}

function finish(room: Room) {
  clearTimers(room);
  room.status = "finished";
  room.endsAt = null;
  toRoom(room, "game:state", gameState(room));
  const results = [
    ...room.results.filter((r) => r.position !== null).sort((a, b) => a.position! - b.position!),
    ...room.results.filter((r) => r.position === null),
  ].map((r) => ({
    position: r.position,
    user_id: null,
    username: r.player.nickname,
    nickname: r.player.nickname,
    session_id: r.player.sessionId,
    is_anonymous: true,
    wpm: r.wpm,
    accuracy: r.accuracy,
    completion_time: r.completionTime,
    error_count: r.errorCount,
    win_streak: r.position === 1 ? 1 : 0,
    rewards: null,
  }));
  const sentenceId = room.sentence!.id;
  toRoom(room, "game:results", { room_id: room.id, sentence_id: sentenceId, participants: results.length, results });
  const top = results
    .filter((r) => r.position !== null)
    .slice(0, 5)
    .map((r) => `${r.position}위 ${r.username} (${r.wpm}타/분, ${r.accuracy}%)`)
    .join(" · ");
  toRoom(room, "chat:message", {
    ...systemFields(room, "result"),
    message: `게임 결과: ${top}`,
    sentence_id: sentenceId,
    results,
  });
  later(room, RESULTS_MS, () => toWaiting(room));
}

function submit(ws: Ws, room: Room, typedText: string, clientElapsed: number | undefined) {
  if (room.status !== "in_progress" || !room.sentence || room.results.some((r) => r.player === ws.data)) return;
  const serverSeconds = (Date.now() - room.startedAt!) / 1000;
  const believable =
    clientElapsed !== undefined && clientElapsed <= serverSeconds && clientElapsed >= serverSeconds - 1.5;
  const elapsed = believable ? clientElapsed : serverSeconds;
  const score = scoreTyping(typedText, room.sentence.text, elapsed);
  const positioned = room.results.filter((r) => r.position !== null).length;
  const result: Result = {
    player: ws.data,
    wpm: score.wpm,
    accuracy: score.accuracy,
    errorCount: score.error_count,
    completionTime: Math.round(elapsed * 100) / 100,
    position: score.accuracy >= 80 ? positioned + 1 : null,
  };
  room.results.push(result);
  const payload = {
    room_id: room.id,
    sentence_id: room.sentence.id,
    position: result.position,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completion_time: result.completionTime,
    error_count: result.errorCount,
    session_id: ws.data.sessionId,
  };
  toRoom(room, "game:submission_complete", {
    ...payload,
    user_id: null,
    username: ws.data.nickname,
    nickname: ws.data.nickname,
    is_anonymous: true,
    completed_count: room.results.length,
    total_players: room.members.size,
  });
  ws.send(frame("game:personal_feedback", payload));
  const before = room.lanes.get(ws.data.sessionId);
  setLane(room, ws.data, {
    progress: result.position !== null ? 1 : (before?.progress ?? 0),
    wpm: result.wpm,
    completed: true,
    ...(result.position !== null ? { position: result.position } : {}),
  });
  if (room.results.length >= room.members.size) finish(room);
}

// --- lanes (the rooms module's coalesced game:progress_update) ---------------------------------------------------

const LANES_FRAME_MS = 200;
const roomsWithLanes = new Set<Room>();

function setLane(room: Room, player: Player, lane: LaneFigures) {
  room.laneNames.set(player.sessionId, player.nickname);
  room.lanes.set(player.sessionId, lane);
  if (room.lanes.pending) roomsWithLanes.add(room);
}

function progress(ws: Ws, room: Room, typedText: string) {
  if (room.status !== "in_progress" || !room.sentence || room.results.some((r) => r.player === ws.data)) return;
  const figures = progressAt({ t: Date.now() - room.startedAt!, text: typedText }, room.sentence.text);
  setLane(room, ws.data, { ...figures, completed: false });
}

setInterval(() => {
  for (const room of roomsWithLanes) {
    const participants = room.lanes
      .flush()
      .map(([key, figures]) => ({ key, name: room.laneNames.get(key) ?? "", ...figures }));
    if (participants.length > 0) toRoom(room, "game:progress_update", { room_id: room.id, participants });
  }
  roomsWithLanes.clear();
}, LANES_FRAME_MS);

// --- membership and chat ---------------------------------------------------------------------------------------

function guestEntry(player: Player) {
  return { session_id: player.sessionId, nickname: player.nickname, created_at: player.joinedAt, is_anonymous: true };
}

function counts(room: Room) {
  return { user_count: 0, anonymous_count: room.members.size, total_participants: room.members.size };
}

function joinRoom(ws: Ws, room: Room) {
  if (ws.data.room || room.members.size >= MAX_USERS) return;
  ws.data.room = room;
  ws.data.joinedAt = new Date().toISOString();
  room.members.set(ws.data.sid, ws);
  ws.subscribe(room.topic);
  ws.send(
    frame("room:joined:anonymous", {
      room_id: room.id,
      game_state: gameState(room),
      session_id: ws.data.sessionId,
      my_result: null,
      nickname: ws.data.nickname,
      created_at: ws.data.joinedAt,
    }),
  );
  toRoom(room, "room:anonymous_joined", { room_id: room.id, ...guestEntry(ws.data), ...counts(room) });
  toRoom(room, "room:users_update", {
    room_id: room.id,
    max_users: MAX_USERS,
    ...counts(room),
    users: [],
    anonymous_users: [...room.members.values()].map((m) => guestEntry(m.data)),
  });
  toRoom(room, "chat:message", { ...systemFields(room, "system"), message: `${ws.data.nickname}님이 입장했습니다.` });
  if (room.status === "waiting" && room.nextGameAt === null) toWaiting(room);
}

function leaveRoom(ws: Ws) {
  const room = ws.data.room;
  if (!room) return;
  ws.data.room = null;
  room.members.delete(ws.data.sid);
  if (room.members.size === 0) {
    clearTimers(room);
    room.status = "waiting";
    room.nextGameAt = null;
  }
}

function chat(ws: Ws, room: Room, message: string) {
  toRoom(room, "chat:message", {
    room_id: room.id,
    user_id: null,
    username: ws.data.nickname,
    nickname: ws.data.nickname,
    session_id: ws.data.sessionId,
    is_anonymous: true,
    message: message.normalize("NFC").trim(),
    timestamp: iso(Date.now()),
    is_system: false,
    is_private: false,
    message_type: "chat",
  });
}

function onEvent(ws: Ws, name: string, payload: Record<string, unknown>) {
  const room = ws.data.room;
  if (name === "join_anonymous" || name === "join_room") {
    const target = rooms.get(Number(payload.room_id));
    if (target) joinRoom(ws, target);
  } else if (name === "chat_message" && room && typeof payload.message === "string") {
    chat(ws, room, payload.message);
  } else if (name === "game:progress" && room && typeof payload.typed_text === "string") {
    progress(ws, room, payload.typed_text);
  } else if (name === "game:submission" && room && typeof payload.typed_text === "string") {
    submit(ws, room, payload.typed_text, typeof payload.elapsed_time === "number" ? payload.elapsed_time : undefined);
  }
}

const raw = serveRawSocketIo<PlayerExtra>({
  host: HOST,
  port: PORT,
  extra: () => ({ joinedAt: "", room: null }),
  onEvent: (ws, name, payload) => onEvent(ws, name, payload),
  onClose: leaveRoom,
});
const server = raw.server;
startLagLog("baseline");
collectOnSignal();
console.log(`BENCH_READY ${JSON.stringify({ port: server.port, rooms: [...rooms.keys()] })}`);

const stop = () => {
  raw.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
