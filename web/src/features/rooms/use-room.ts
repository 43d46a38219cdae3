/**
 * One room's live state: joins through the app's one socket (again after every reconnect; on a connection routed
 * for this room when a proxy routes by room, see lib/socket.ts `route`), leaves on unmount, feeds the room's events
 * into `roomReducer`, and sends chat lines and answers.
 */
import { useAtomValue } from "jotai";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import type { ServerEventName, ServerEvents, ServerPayload } from "../../../../modules/kernel/socket";
import { CHAT_LINE_ACCURACY, isChatLine } from "../../../../modules/kernel/typing";
import { api, isApiError } from "../../lib/api";
import { ProgressSender } from "../../lib/progress-sender";
import { socketManager } from "../../lib/socket";
import { appStore } from "../../lib/store";
import { currentUserAtom, session } from "../session/atoms";
import { canAnswer, initialRoomState, type RoomAction, roomReducer, roundSentenceId } from "./room-state";
import type { PrivateRoomInfo, PrivateRoomView, Room, SocketError, UsersUpdate } from "./types";

/** Cleanup of faded system messages runs this often (spec §9). */
const CLEANUP_MS = 100;

/** Why the room page shows no room: none there, full, or a private room that is gone for this player (in words). */
export type RoomFailure = { kind: "not_found" } | { kind: "full"; message: string } | { kind: "gone"; message: string };

/** A private room's refusals of a join: closed, a replaced code, a removed player (the server's words). */
const GONE_CODES = new Set(["room_closed", "invalid_code", "removed"]);

/** Room events and how each becomes a reducer action (`now` is the local arrival time). */
const EVENTS = {
  "room:joined": (payload, now) => ({ type: "joined", payload, now }),
  "room:joined:anonymous": (payload, now) => ({ type: "joined", payload, now }),
  "game:state": (payload, now) => ({ type: "state", payload, now }),
  "chat:message": (payload, now) => ({ type: "chat", payload, now }),
  "game:countdown_message": (p, now) => ({
    type: "countdown_message",
    message: p.message,
    seconds: p.seconds,
    now,
  }),
  "game:countdown_number": (p) => ({ type: "countdown_number", number: p.number }),
  "game:end_countdown_message": (p, now) => ({
    type: "end_countdown_message",
    message: p.message,
    seconds: p.seconds,
    now,
  }),
  "game:end_countdown_number": (p) => ({ type: "end_countdown_number", number: p.number }),
  "game:submission_complete": (payload, now) => ({ type: "submission_complete", payload, now }),
  "game:personal_feedback": (payload) => ({ type: "feedback", payload }),
  "game:results": (payload) => ({ type: "results", payload }),
  "room:users_update": (payload) => ({ type: "users", payload }),
  "game:progress_update": (payload) => ({ type: "lanes", payload }),
  "room:user_joined": (payload) => ({ type: "counts", payload }),
  "room:user_left": (payload) => ({ type: "counts", payload }),
  "room:anonymous_joined": (payload) => ({ type: "counts", payload }),
  "room:anonymous_left": (payload) => ({ type: "counts", payload }),
  "room:private_update": (payload) => ({ type: "private", payload }),
  "room:rematch": (payload) => ({ type: "rematch", payload }),
} satisfies { [E in ServerEventName]?: (payload: ServerPayload<E>, now: number) => RoomAction };
type RoomEvent = keyof typeof EVENTS;

const JOIN_EVENTS = new Set(["join_room", "join_anonymous"]);

/**
 * An administrator renamed the signed-in member while they play: the room's member list carries the new name, and
 * the navbar shows it at once (the session takes the name like a live stats update).
 */
function followRename(update: UsersUpdate) {
  const me = appStore.get(currentUserAtom);
  const listed = me && update.users?.find((u) => u.id === me.id);
  if (listed && listed.username !== me.username) session.applyStats({ id: me.id, username: listed.username });
}

/** The server's acknowledgement of a chat line or an answer (modules/kernel/socket.ts). */
type Ack = { success?: boolean } | null | undefined;

export interface RoomOptions {
  /** A sent line the server refused (rate limit, …): the page puts it back into the input. */
  onRefused?: (text: string) => void;
  /** Enter as a spectator (`spectate: true`): watch the lanes, never answer. */
  spectate?: boolean;
  /** A private room's invitation code (its link `/r/{code}`): sent with every join. */
  code?: string;
  /** The owner made a new code: the page's address follows it, so a reload still opens the room. */
  onCodeChange?: (code: string) => void;
}

export function useRoom(roomId: number, options: RoomOptions = {}) {
  const spectate = options.spectate === true;
  const onRefused = useRef(options.onRefused);
  onRefused.current = options.onRefused;
  const onCodeChange = useRef(options.onCodeChange);
  onCodeChange.current = options.onCodeChange;
  /** The code every (re)join sends: the link's, then each new one the owner makes while the player is inside. */
  const code = useRef(options.code);
  const [state, dispatch] = useReducer(roomReducer, initialRoomState);
  const [failure, setFailure] = useState<RoomFailure | null>(null);
  const user = useAtomValue(currentUserAtom);
  const userRef = useRef(user);
  userRef.current = user;
  const stateRef = useRef(state);
  stateRef.current = state;
  /** The last answer refused was the player's attempt (implausible): it is not put back into the input. */
  const spentAnswer = useRef(false);

  // First paint of the header, and the missing-room page even while the socket is still connecting.
  useEffect(() => {
    if (!Number.isSafeInteger(roomId) || roomId < 1) {
      setFailure({ kind: "not_found" });
      return;
    }
    const controller = new AbortController();
    const signal = controller.signal;
    const first = code.current
      ? api
          .get<PrivateRoomInfo>(`/api/rooms/invite/${code.current}`, { signal })
          .then((info) => dispatch({ type: "room", room: info.room, privateRoom: info.private }))
      : api.get<Room>(`/api/rooms/${roomId}`, { signal }).then((room) => dispatch({ type: "room", room }));
    first.catch((error) => {
      if (isApiError(error) && error.status === 404) setFailure({ kind: "not_found" });
    });
    return () => controller.abort();
  }, [roomId]);

  useEffect(() => {
    if (!Number.isSafeInteger(roomId) || roomId < 1) return;
    const listen = <E extends RoomEvent>(event: E) => {
      const toAction = EVENTS[event] as (payload: ServerPayload<E>, now: number) => RoomAction;
      const handler = (payload: ServerPayload<E>) => {
        if (!payload || Number(payload.room_id) !== roomId) return;
        dispatch(toAction(payload, Date.now()));
        if (event === "room:users_update") followRename(payload as UsersUpdate);
        if (event === "room:private_update") followCode((payload as PrivateRoomView).code);
      };
      return socketManager.subscribe(event, handler as ServerEvents[E]);
    };
    const followCode = (next: string) => {
      if (next === code.current) return;
      code.current = next;
      onCodeChange.current?.(next);
    };
    const gone = (payload: { room_id: number; message: string } | undefined) => {
      if (Number(payload?.room_id) === roomId) setFailure({ kind: "gone", message: payload!.message });
    };
    const offs = (Object.keys(EVENTS) as RoomEvent[]).map(listen);
    offs.push(socketManager.subscribe("room:removed", gone), socketManager.subscribe("room:closed", gone));
    offs.push(
      socketManager.subscribe("error", (error: SocketError) => {
        const message = error?.message ?? "";
        if (error?.event && JOIN_EVENTS.has(error.event)) {
          if (error.code === "room_not_found") return setFailure({ kind: "not_found" });
          if (error.code === "room_full") return setFailure({ kind: "full", message });
          if (GONE_CODES.has(error.code ?? "")) return setFailure({ kind: "gone", message });
        }
        if (error?.event === "game:submission") {
          dispatch({ type: "submit_refused", code: error.code });
          spentAnswer.current = error.code === "implausible";
        }
        // Every refusal (chat's own limit, the socket budget, a refused answer) is a notice in the chat, never a
        // modal alert: the player is typing, and a dialog would stop them mid-game.
        if (message) dispatch({ type: "refused", text: message, now: Date.now() });
      }),
    );
    return () => {
      for (const off of offs) off();
    };
  }, [roomId]);

  // Join now and after every (re)connect, with whoever is signed in at that moment; leave on unmount.
  useEffect(() => {
    if (!Number.isSafeInteger(roomId) || roomId < 1) return;
    const join = () => {
      // Whoever is signed in now (a login or logout may have just changed it), not as of the last render.
      const current = appStore.get(currentUserAtom);
      const role = { ...(spectate ? { spectate: true } : {}), ...(code.current ? { code: code.current } : {}) };
      if (current)
        socketManager.emit("join_room", { room_id: roomId, user_id: current.id, username: current.username, ...role });
      else socketManager.emit("join_anonymous", { room_id: roomId, ...role });
    };
    // Room affinity: a connection a routing proxy placed for another route moves first; the join then waits for
    // the new connection instead of being sent on the one being dropped.
    const stopJoining = socketManager.joinOn({ room: roomId }, join);
    // A login or logout (here or in another tab) takes the old identity out of the room at once, so its place and
    // its answers end now; the new identity joins on the next connect.
    const offIdentity = socketManager.onIdentityChange(() => socketManager.emit("leave_room", { room_id: roomId }));
    // Closing the tab frees the place at once instead of after the server's reconnect grace.
    const onPageHide = () => socketManager.emit("disconnect_cleanup", { room_id: roomId });
    window.addEventListener("pagehide", onPageHide);
    return () => {
      stopJoining();
      offIdentity();
      window.removeEventListener("pagehide", onPageHide);
      // The leave goes out on the connection it is for, before the next room's route may replace that connection;
      // the lobby wants no route, so the connection stays where it is.
      if (!socketManager.getSocket().connected) return;
      const current = userRef.current;
      socketManager.emit("leave_room", {
        room_id: roomId,
        ...(current ? { user_id: current.id } : { session_id: stateRef.current.sessionId }),
      });
    };
  }, [roomId, spectate]);

  // The answer box's steps (`game:progress`): at most 10 a second, the last change always sent; a new round starts
  // with nothing sent.
  const sender = useMemo(
    () => new ProgressSender((text) => socketManager.emit("game:progress", { room_id: roomId, typed_text: text })),
    [roomId],
  );
  const round = roundSentenceId(state);
  useEffect(() => {
    if (round !== null) sender.reset();
  }, [sender, round]);
  useEffect(() => () => sender.reset(), [sender]);

  /** The answer box changed: a step while the player's answer is due. */
  const progress = useCallback(
    (text: string) => {
      if (canAnswer(stateRef.current)) sender.update(text);
    },
    [sender],
  );

  // Only lines that fade need the clock: a tick with none would still render the whole room ten times a second (a
  // reducer's unchanged state is no bail-out before rendering), in the frames of the player's keystrokes
  // (bench/README "Keystroke to screen").
  useEffect(() => {
    const timer = setInterval(() => {
      if (stateRef.current.messages.some((m) => m.expiresAt !== undefined)) dispatch({ type: "tick", now: Date.now() });
    }, CLEANUP_MS);
    return () => clearInterval(timer);
  }, []);

  /**
   * Sends the input line: this game's answer while one is due, else a chat message. A line typed while the
   * answer is due that is clearly not an answer ("ㅋㅋ 어렵다": below 50 % accurate against the sentence, the server's
   * own rule) goes as chat with `is_game_answer`, so the server judges it by the same rule and the attempt is kept.
   * True when it was sent (the input is cleared); a line the server then refuses is handed back through
   * `onRefused`, so nothing typed is lost — except an answer refused as implausible, which used up the attempt.
   */
  const send = useCallback(
    (text: string): boolean => {
      spentAnswer.current = false;
      const refusedBack = (answer: Ack) => {
        if (answer?.success === false && !spentAnswer.current) onRefused.current?.(text);
      };
      const current = stateRef.current;
      const sentence = current.game?.sentence;
      const me = userRef.current;
      const who = me ? { user_id: me.id, username: me.username } : {};
      if (canAnswer(current) && sentence) {
        if (!text.trim()) return false;
        if (isChatLine(text, sentence.text, CHAT_LINE_ACCURACY)) {
          socketManager.emit(
            "chat_message",
            { room_id: roomId, message: text.trim(), is_game_answer: true, ...who },
            refusedBack,
          );
          return true;
        }
        // The server's last step must be the answer (an answer other than its last step is refused).
        sender.update(text);
        sender.flush();
        const elapsed = current.timing ? Math.max(0, (Date.now() - current.timing.startLocal) / 1000) : undefined;
        socketManager.emit(
          "game:submission",
          {
            room_id: roomId,
            sentence_id: sentence.id,
            typed_text: text,
            elapsed_time: elapsed,
            is_game_answer: true,
          },
          refusedBack,
        );
        dispatch({ type: "submitting", sentenceId: sentence.id });
        return true;
      }
      const message = text.trim();
      if (!message) return false;
      socketManager.emit("chat_message", { room_id: roomId, message, is_game_answer: false, ...who }, refusedBack);
      return true;
    },
    [roomId, sender],
  );

  /** "다시 하기": this player asks for another round (a private room, between rounds). */
  const rematch = useCallback(() => socketManager.emit("room:rematch", { room_id: roomId }), [roomId]);

  return { state, failure, send, progress, rematch };
}
