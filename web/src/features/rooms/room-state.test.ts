import { describe, expect, test } from "bun:test";
import {
  askedRematch,
  betweenRounds,
  CHAT_BUFFER,
  type ChatEntry,
  canAnswer,
  FADE_MS,
  initialRoomState,
  isOwner,
  myMedal,
  RATE_NOTICE_MS,
  type RoomAction,
  type RoomState,
  raceLanes,
  roomReducer,
  roundSentenceId,
  SYSTEM_TTL_MS,
  trimMessages,
} from "./room-state";
import type { ChatPayload, GameResult, GameState, JoinedPayload, PrivateRoomView, Room } from "./types";

const T0 = Date.parse("2025-01-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

const room = { id: 1, name: "초보자 방", max_users: 20, users: [], anonymous_users: [] } as unknown as Room;

function gameState(status: GameState["status"], at: number, extra: Partial<GameState> = {}): GameState {
  return {
    room_id: 1,
    status,
    sentence: null,
    started_at: null,
    game_duration: 10,
    countdown_seconds: 3,
    next_game_at: null,
    ends_at: null,
    server_time: iso(at),
    ...extra,
  };
}

const playing = (at: number, id = 7, text = "안녕하세요") =>
  gameState("in_progress", at, {
    sentence: { id, text },
    started_at: iso(at),
    ends_at: iso(at + 10_000),
  });

const chat = (message: string, type: ChatPayload["message_type"] = "chat", extra: Partial<ChatPayload> = {}) =>
  ({
    room_id: 1,
    user_id: null,
    username: "guest_1234",
    nickname: "guest_1234",
    session_id: "g_abc",
    is_anonymous: true,
    message,
    timestamp: iso(T0),
    is_system: type !== "chat",
    is_private: false,
    message_type: type,
    ...extra,
  }) as ChatPayload;

const run = (actions: RoomAction[], from: RoomState = initialRoomState) => actions.reduce(roomReducer, from);

function joined(game: GameState, now = T0, my_result: JoinedPayload["my_result"] = null): RoomAction {
  return {
    type: "joined",
    now,
    payload: {
      room_id: 1,
      room,
      game_state: game,
      session_id: "u_1",
      my_result,
      spectating: false,
      private: null,
      user: { id: 1, username: "철수", level: 1, gold_medals: 0, silver_medals: 0, bronze_medals: 0 },
    },
  };
}

describe("room state", () => {
  test("waiting → countdown → in_progress posts the problem once → finished finalizes it", () => {
    let state = run([joined(gameState("waiting", T0, { next_game_at: iso(T0 + 5_000) }))]);
    expect(state.nextGameLocal).toBe(T0 + 5_000);
    state = run([{ type: "state", payload: gameState("countdown", T0 + 5_000), now: T0 + 5_000 }], state);
    expect(state.countdown).toBe(3);
    state = run([{ type: "countdown_number", number: 2 }], state);
    expect(state.countdown).toBe(2);

    state = run(
      [
        { type: "state", payload: playing(T0 + 8_000), now: T0 + 8_000 },
        // The server's own problem message right after the state: the same problem, not a second one.
        {
          type: "chat",
          payload: chat("안녕하세요", "problem", { sentence_id: 7, game_duration: 10 }),
          now: T0 + 8_001,
        },
      ],
      state,
    );
    const problems = state.messages.filter((m) => m.kind === "problem");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ text: "안녕하세요", durationMs: 10_000 });
    expect(problems[0].finalized).toBeFalsy();
    expect(state.countdown).toBeNull();
    expect(state.timing).toEqual({ startLocal: T0 + 8_000, endLocal: T0 + 18_000, durationMs: 10_000 });

    state = run([{ type: "state", payload: { ...playing(T0 + 8_000), status: "finished" }, now: T0 + 12_000 }], state);
    expect(state.messages.find((m) => m.kind === "problem")?.finalized).toBe(true);
  });

  test("a new problem finalizes the earlier one; completion is reset", () => {
    let state = run([joined(playing(T0)), { type: "feedback", payload: feedback(7) }]);
    expect(canAnswer(state)).toBe(false);
    state = run(
      [
        { type: "state", payload: { ...playing(T0), status: "finished" }, now: T0 + 5_000 },
        { type: "state", payload: gameState("waiting", T0 + 6_000), now: T0 + 6_000 },
        { type: "state", payload: playing(T0 + 20_000, 8, "닭볶음탕"), now: T0 + 20_000 },
      ],
      state,
    );
    const problems = state.messages.filter((m) => m.kind === "problem");
    expect(problems.map((p) => [p.text, p.finalized ?? false])).toEqual([
      ["안녕하세요", true],
      ["닭볶음탕", false],
    ]);
    expect(state.feedback).toBeNull();
    expect(canAnswer(state)).toBe(true);
  });

  test("timing follows the server's clock, not the local one", () => {
    // The local clock is 30 s ahead of the server; the game started 2 s before the state was sent.
    const serverNow = T0 + 2_000;
    const state = run([joined({ ...playing(T0), server_time: iso(serverNow) }, serverNow + 30_000)]);
    expect(state.timing).toEqual({ startLocal: T0 + 30_000, endLocal: T0 + 40_000, durationMs: 10_000 });
  });

  test("joining during a game the player already answered keeps the answer", () => {
    const state = run([joined(playing(T0), T0 + 1_000, feedback(7))]);
    expect(state.feedback?.sentence_id).toBe(7);
    expect(canAnswer(state)).toBe(false);
    expect(state.messages.filter((m) => m.kind === "problem")).toHaveLength(1);
  });

  test("an answer in flight blocks a second one until refused or answered", () => {
    let state = run([joined(playing(T0)), { type: "submitting", sentenceId: 7 }]);
    expect(canAnswer(state)).toBe(false);
    state = run([{ type: "submit_refused" }], state);
    expect(canAnswer(state)).toBe(true);
    expect(canAnswer(run([joined(gameState("waiting", T0))]))).toBe(false);
  });

  test("an answer refused as implausible was the attempt: no second try; the next round is a new one", () => {
    let state = run([joined(playing(T0)), { type: "submitting", sentenceId: 7 }]);
    state = run([{ type: "submit_refused", code: "implausible" }], state);
    expect(canAnswer(state)).toBe(false);
    expect(roundSentenceId(state)).toBe(7);
    state = run([{ type: "state", payload: gameState("finished", T0 + 5_000), now: T0 + 5_000 }], state);
    expect(roundSentenceId(state)).toBe(null);
    state = run([{ type: "state", payload: playing(T0 + 20_000, 8, "다음 문장"), now: T0 + 20_000 }], state);
    expect([roundSentenceId(state), canAnswer(state)]).toEqual([8, true]);
  });

  test("system messages fade after their time and are removed after the 1 s fade", () => {
    let state = run([
      joined(gameState("waiting", T0)),
      { type: "chat", payload: chat("철수님이 입장했습니다.", "system"), now: T0 },
      { type: "chat", payload: chat("안녕!"), now: T0 },
    ]);
    const before = run([{ type: "tick", now: T0 + SYSTEM_TTL_MS - 1 }], state);
    expect(before).toBe(state);
    state = run([{ type: "tick", now: T0 + SYSTEM_TTL_MS }], state);
    expect(state.messages.find((m) => m.kind === "system")?.fading).toBe(true);
    state = run([{ type: "tick", now: T0 + SYSTEM_TTL_MS + FADE_MS }], state);
    expect(state.messages.map((m) => m.kind)).toEqual(["chat"]);
  });

  test("countdown messages expire with the countdown", () => {
    let state = run([
      joined(gameState("waiting", T0)),
      { type: "countdown_message", message: "3초 후 게임이 시작됩니다!", seconds: 3, now: T0 },
    ]);
    expect(state.messages[0]).toMatchObject({ kind: "system", expiresAt: T0 + 3_000 });
    state = run([{ type: "tick", now: T0 + 3_000 + FADE_MS }], state);
    expect(state.messages).toHaveLength(0);
  });

  test("the buffer keeps 200 messages and never drops problems or results", () => {
    let state = run([joined(playing(T0))]);
    state = run(
      [{ type: "chat", payload: chat("게임 결과", "result", { sentence_id: 7, results: [] }), now: T0 }],
      state,
    );
    for (let i = 0; i < CHAT_BUFFER + 50; i++) {
      state = roomReducer(state, { type: "chat", payload: chat(`메시지 ${i}`), now: T0 + i });
    }
    expect(state.messages).toHaveLength(CHAT_BUFFER);
    expect(state.messages[0].kind).toBe("problem");
    expect(state.messages[1].kind).toBe("result");
    expect(state.messages.at(-1)?.text).toBe(`메시지 ${CHAT_BUFFER + 49}`);
    expect(state.messages[2].text).toBe("메시지 52");
  });

  test("trimMessages keeps everything when only problems and results are left to drop", () => {
    const keep = (id: number): ChatEntry => ({
      id,
      kind: id % 2 ? "problem" : "result",
      text: "",
      author: null,
      sessionId: null,
      isAnonymous: false,
      at: 0,
    });
    const messages = Array.from({ length: 5 }, (_, i) => keep(i));
    expect(trimMessages(messages, 3)).toHaveLength(5);
  });

  test("rate-limit refusals are one red notice, refreshed; users and counts update the room", () => {
    const text = "메시지를 너무 빠르게 보내고 있습니다.";
    let state = run([joined(gameState("waiting", T0)), { type: "refused", text, now: T0 }]);
    expect(state.messages.at(-1)).toMatchObject({ kind: "error", text });
    state = run(
      [
        { type: "chat", payload: chat("안녕"), now: T0 + 100 },
        { type: "refused", text, now: T0 + 200 },
        { type: "refused", text, now: T0 + 4_000 },
      ],
      state,
    );
    expect(state.messages.filter((m) => m.kind === "error")).toHaveLength(1);
    expect(state.messages.at(-1)).toMatchObject({ kind: "error", expiresAt: T0 + 4_000 + RATE_NOTICE_MS });
    expect(run([{ type: "tick", now: T0 + 6_000 }], state).messages.at(-1)?.kind).toBe("error");
    expect(run([{ type: "tick", now: T0 + 4_000 + RATE_NOTICE_MS + FADE_MS }], state).messages.at(-1)?.kind).toBe(
      "chat",
    );
    state = run(
      [
        {
          type: "users",
          payload: {
            room_id: 1,
            max_users: 20,
            user_count: 1,
            anonymous_count: 1,
            total_participants: 2,
            spectators: 0,
            users: [],
            anonymous_users: [{ session_id: "g_1", nickname: "guest_1000", created_at: iso(T0), is_anonymous: true }],
          },
        },
        { type: "counts", payload: { room_id: 1, user_count: 1, anonymous_count: 2, total_participants: 3 } },
      ],
      state,
    );
    expect(state.room?.anonymous_users).toHaveLength(1);
    expect(state.room?.total_participants).toBe(3);
  });

  test("results and submissions", () => {
    let state = run([joined(playing(T0))]);
    state = run(
      [
        {
          type: "submission_complete",
          now: T0 + 3_000,
          payload: {
            ...feedback(7),
            user_id: 1,
            username: "철수",
            nickname: "철수",
            is_anonymous: false,
            completed_count: 1,
            total_players: 2,
            replay_key: null,
          },
        },
        { type: "results", payload: { room_id: 1, sentence_id: 7, participants: 1, results: [] } },
      ],
      state,
    );
    expect(state.completed).toEqual({ count: 1, total: 2 });
    expect(state.messages.at(-1)?.text).toBe("철수님 완료! 1위 · 300타/분");
    expect(state.results?.sentence_id).toBe(7);
  });

  test("the player's own submission keeps its replay's key for the result card; another player's does not", () => {
    const complete = (sessionId: string, key: string | null) => ({
      type: "submission_complete" as const,
      now: T0 + 3_000,
      payload: {
        ...feedback(7),
        session_id: sessionId,
        user_id: null,
        username: "누구",
        nickname: "누구",
        is_anonymous: false,
        completed_count: 1,
        total_players: 2,
        replay_key: key,
      },
    });
    const state = run([joined(playing(T0)), complete("g_other", "OtherKeyOtherKeyOther1")]);
    expect(state.myReplay).toBeNull();
    const mine = run([complete("u_1", "MyReplayKeyMyReplayKe")], state);
    expect(mine.myReplay).toEqual({ sentenceId: 7, key: "MyReplayKeyMyReplayKe" });
  });
});

function feedback(sentenceId: number) {
  return {
    room_id: 1,
    sentence_id: sentenceId,
    position: 1,
    wpm: 300,
    accuracy: 100,
    completion_time: 2.4,
    error_count: 0,
    session_id: "u_1",
  };
}

/** The player's own line of game:results, with the medal the server put into its rewards. */
const myResult = (medal: "gold" | null): GameResult => ({
  position: 1,
  user_id: 1,
  username: "철수",
  nickname: "철수",
  session_id: "u_1",
  is_anonymous: false,
  wpm: 300,
  accuracy: 100,
  completion_time: 2.4,
  error_count: 0,
  win_streak: 0,
  rewards: { experience: 40, coins: medal ? 30 : 5, points: 30, medal },
});

describe("내 기록's medal", () => {
  test("comes with the game's results, as the server awarded it", () => {
    const during = run([joined(playing(T0)), { type: "feedback", payload: feedback(7) }]);
    expect(during.feedback?.position).toBe(1);
    expect(myMedal(during)).toBeNull(); // first so far is not a medal yet
    const results = (participants: number, list: GameResult[]): RoomAction => ({
      type: "results",
      payload: { room_id: 1, sentence_id: 7, participants, results: list },
    });
    expect(myMedal(run([results(1, [myResult(null)])], during))).toBeNull(); // a game of one
    const guest = { ...myResult(null), session_id: "g_x", user_id: null, position: null, rewards: null };
    expect(myMedal(run([results(2, [myResult("gold"), guest])], during))).toBe(1);
  });
});

describe("lanes and spectators", () => {
  const lane = (key: number | string, progress: number, extra = {}) => ({
    key,
    name: String(key),
    progress,
    wpm: 100,
    completed: false,
    ...extra,
  });

  test("updates merge by key; every player present has a lane; a new round starts from the line", () => {
    const present = {
      ...room,
      users: [{ id: 1, username: "철수" }],
      anonymous_users: [{ session_id: "g_abc", nickname: "guest_1234" }],
    } as unknown as Room;
    let state = run([joined(playing(T0)), { type: "room", room: present }]);
    state = { ...state, room: present };
    state = run(
      [
        { type: "lanes", payload: { room_id: 1, participants: [lane(1, 0.2)] } },
        { type: "lanes", payload: { room_id: 1, participants: [lane(1, 0.5), lane("g_abc", 0.1)] } },
      ],
      state,
    );
    expect(raceLanes(state).map((l) => [String(l.key), l.progress])).toEqual([
      ["1", 0.5],
      ["g_abc", 0.1],
    ]);
    expect(state.laneKey).toBe("1");
    state = run([{ type: "state", payload: playing(T0 + 20_000, 8, "닭볶음탕"), now: T0 + 20_000 }], state);
    expect(raceLanes(state).map((l) => l.progress)).toEqual([0, 0]);
  });

  test("a spectator never answers", () => {
    const watching = joined(playing(T0));
    if (watching.type === "joined") watching.payload = { ...watching.payload, spectating: true };
    const state = run([watching]);
    expect(state.spectating).toBe(true);
    expect(canAnswer(state)).toBe(false);
  });
});

describe("a private room", () => {
  const link: PrivateRoomView = {
    room_id: 1,
    code: "A".repeat(22),
    invite_path: `/r/${"A".repeat(22)}`,
    owner: { id: 1, username: "방장" },
    auto_start: false,
    texts: { kind: "own", count: 2 },
  };
  const privateJoin = (game: GameState): RoomAction => {
    const action = joined(game);
    if (action.type === "joined") action.payload = { ...action.payload, private: link };
    return action;
  };

  test("the join says who owns it; an update replaces its link and settings", () => {
    let state = run([privateJoin(gameState("waiting", T0))]);
    expect(isOwner(state, 1)).toBe(true);
    expect(isOwner(state, 2)).toBe(false);
    expect(isOwner(run([joined(gameState("waiting", T0))]), 1)).toBe(false); // a public room has no owner
    state = run(
      [{ type: "private", payload: { ...link, code: "B".repeat(22), owner: { id: 2, username: "새방장" } } }],
      state,
    );
    expect(state.privateRoom?.code).toBe("B".repeat(22));
    expect(isOwner(state, 2)).toBe(true);
  });

  test("다시 하기 between rounds: marks as the server says them, spent when the next round counts down", () => {
    let state = run([privateJoin(playing(T0))]);
    expect(betweenRounds(state)).toBe(false);
    state = run([{ type: "state", payload: gameState("finished", T0 + 10_000), now: T0 + 10_000 }], state);
    expect(betweenRounds(state)).toBe(true);
    state = run([{ type: "rematch", payload: { room_id: 1, ready: ["u_1"], players: 2 } }], state);
    expect(askedRematch(state)).toBe(true);
    expect(state.rematch?.players).toBe(2);
    state = run([{ type: "state", payload: gameState("countdown", T0 + 12_000), now: T0 + 12_000 }], state);
    expect(state.rematch).toBeNull();
    expect(askedRematch(state)).toBe(false);
    expect(betweenRounds(run([joined(gameState("waiting", T0))]))).toBe(false); // a public room has no rematch
  });
});
