/**
 * One guild room's live state: joins through the app's one socket (again after every reconnect), leaves on unmount,
 * and keeps the room's state (`guild:joined`, sent again after every change), the chat (the last 100 lines plus
 * system and error lines), the guild game (`guild_game:*`), and a removal (kick, leave, disband) that ends the page.
 * `spectate` (the page's `?watch=1`) joins to watch the game without playing; when it changes the room is joined
 * again with the other role.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { CHAT_KEPT, GUILD_MSG } from "../../../../modules/guilds/rules";
import type {
  ClientAnswer,
  ClientEvents,
  ClientPayload,
  Refusal,
  ServerEventName,
  ServerEvents,
  ServerPayload,
} from "../../../../modules/kernel/socket";
import { socketManager } from "../../lib/socket";
import type { GuildGameResults, GuildGameState, GuildJoined, GuildMessage } from "./types";

/** A chat line on screen: a guild message, a system line, or an error shown in red (rate limit, a refused command). */
export interface ChatLine {
  key: string;
  kind: "chat" | "system" | "error";
  username: string;
  userId: number | null;
  text: string;
  at: string;
  /** A stored member's line: its id, which a report names (moderation). */
  messageId?: number;
}

export type RoomFailure = { kind: "refused" | "removed"; message: string };

/** The admin actions: answered by an acknowledgement, their refusals are shown where the action was taken. */
const ACKNOWLEDGED = [
  "guild:update_settings",
  "guild:upload_problems",
  "guild:update_member_role",
  "guild:kick_member",
  "guild:send_invites",
] as const;
export type AdminAction = (typeof ACKNOWLEDGED)[number];
const isAcknowledged = (event: string) => (ACKNOWLEDGED as readonly string[]).includes(event);

export type GameAction = "guild_game:start_request" | "guild_game:progress" | "guild_game:submission";

/** An action's payload as a page gives it: the room's hook adds the guild's id. */
export type ActionPayload<E extends AdminAction | GameAction> = Omit<ClientPayload<E>, "guild_id">;
/** Runs an admin action; resolves with the server's answer (or the spec's refusal without a connection). */
export type Act = <E extends AdminAction>(event: E, payload: ActionPayload<E>) => Promise<ClientAnswer<E> | Refusal>;
export type EmitGame = <E extends GameAction>(event: E, payload: ActionPayload<E>) => void;

let lineCounter = 0;
const nextKey = () => `l${++lineCounter}`;

function toLine(message: GuildMessage): ChatLine {
  return {
    key: message.id !== undefined && !message.is_system ? `m${message.id}` : nextKey(),
    kind: message.is_system ? "system" : "chat",
    username: message.username,
    userId: message.user_id,
    text: message.message,
    at: message.timestamp,
    ...(message.id !== undefined && !message.is_system ? { messageId: message.id } : {}),
  };
}

/** Keeps the chat to the guild's last 100 stored lines plus what happened since (bounded all the same). */
const trimmed = (lines: ChatLine[]) => (lines.length > CHAT_KEPT * 2 ? lines.slice(-CHAT_KEPT * 2) : lines);

const sameGuild = (payload: { guild_id?: number | string } | null | undefined, guildId: number) =>
  !!payload && Number(payload.guild_id) === guildId;

export function useGuildRoom(guildId: number, myUserId: number | null, spectate: boolean) {
  const [room, setRoom] = useState<GuildJoined | null>(null);
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [game, setGame] = useState<GuildGameState | null>(null);
  const [results, setResults] = useState<GuildGameResults | null>(null);
  const [countdown, setCountdown] = useState<number | null>(null);
  const [gameNotice, setGameNotice] = useState<string | null>(null);
  /** My answer of this game was not counted (implausibly fast): the game state does not say so, the refusal does. */
  const [rejected, setRejected] = useState(false);
  const [failure, setFailure] = useState<RoomFailure | null>(null);
  const joinedOnce = useRef(false);
  /** The role this page asks for, on every (re)join: watching the game, or playing it. */
  const asked = useRef(spectate);
  const me = useRef(myUserId);
  me.current = myUserId;

  const addLine = useCallback((line: Omit<ChatLine, "key" | "at">) => {
    setLines((current) => trimmed([...current, { ...line, key: nextKey(), at: new Date().toISOString() }]));
  }, []);

  useEffect(() => {
    const on = <E extends ServerEventName>(event: E, handler: (payload: ServerPayload<E>) => void) => {
      const forGuild = (payload: ServerPayload<E>) => {
        if (sameGuild(payload as { guild_id?: number | string }, guildId)) handler(payload);
      };
      return socketManager.subscribe(event, forGuild as ServerEvents[E]);
    };
    const offs = [
      // guild:joined carries guild.id, not guild_id. The stored lines come with the first join; later pushes of
      // the state (after every change) do not repeat them.
      socketManager.subscribe("guild:joined", (payload) => {
        if (payload?.guild?.id !== guildId) return;
        setRoom(payload);
        if (!joinedOnce.current) setLines(payload.messages.map(toLine));
        joinedOnce.current = true;
      }),
      on("guild:message", (message) => setLines((current) => trimmed([...current, toLine(message)]))),
      on("guild:removed", (payload) => {
        if (payload.user_id === me.current) setFailure({ kind: "removed", message: payload.message ?? "" });
      }),
      on("guild_game:state", (state) => {
        setGame(state);
        if (state.status !== "countdown") setCountdown(null);
      }),
      on("guild_game:start", ({ state }) => {
        setGame(state);
        setCountdown(null);
        setResults(null);
        setGameNotice(null);
        setRejected(false);
      }),
      on("guild_game:countdown", ({ seconds }) => {
        setCountdown(seconds);
        setResults(null);
        setGameNotice(null);
        setRejected(false);
      }),
      on("guild_game:end", ({ state }) => state && setGame(state)),
      on("guild_game:results", (payload) => setResults(payload)),
      socketManager.subscribe("error", (error) => {
        const event = error?.event ?? "";
        const message = error?.message ?? "";
        if (!message || !event.startsWith("guild") || isAcknowledged(event)) return;
        if (event === "guild:join") return setFailure({ kind: "refused", message });
        if (event.startsWith("guild_game:")) {
          if (error.code === "implausible") setRejected(true);
          return setGameNotice(message);
        }
        // Chat's refusals (rate limit, a slash command refused) appear in red inside the chat (spec §7).
        addLine({ kind: "error", username: "", userId: null, text: message });
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [guildId, addLine]);

  // Join now and after every (re)connect; leave on unmount. Room affinity: a connection a routing proxy placed for
  // another route moves first, and the join waits for the new connection (lib/socket.ts `route`).
  useEffect(() => {
    const stopJoining = socketManager.joinOn({ guild: guildId }, () =>
      socketManager.emit("guild:join", { guild_id: guildId, spectate: asked.current }),
    );
    return () => {
      stopJoining();
      if (socketManager.getSocket().connected) socketManager.emit("guild:leave", { guild_id: guildId });
    };
  }, [guildId]);

  const sendMessage = useCallback(
    (text: string): boolean => {
      const message = text.trim();
      if (!message) return false;
      if (!socketManager.getSocket().connected) {
        addLine({ kind: "error", username: "", userId: null, text: GUILD_MSG.noSocket });
        return false;
      }
      socketManager.emit("guild:message", { guild_id: guildId, message });
      return true;
    },
    [guildId, addLine],
  );

  /** An acknowledged admin action; without a connection the spec's "소켓 연결이 없습니다.". */
  const act: Act = useCallback(
    <E extends AdminAction>(event: E, payload: ActionPayload<E>): Promise<ClientAnswer<E> | Refusal> => {
      if (!socketManager.getSocket().connected) return Promise.resolve({ success: false, error: GUILD_MSG.noSocket });
      return new Promise((resolve) => {
        const answered = (answer: ClientAnswer<E> | undefined) =>
          resolve(answer ?? { success: false, error: "요청을 처리하지 못했습니다." });
        // The payload with the room's guild: what `E`'s schema takes (the spread of a generic payload is not
        // followed by the compiler).
        const args = [{ guild_id: guildId, ...payload }, answered] as unknown as Parameters<ClientEvents[E]>;
        socketManager.emit(event, ...args);
      });
    },
    [guildId],
  );

  const emitGame: EmitGame = useCallback(
    <E extends GameAction>(event: E, payload: ActionPayload<E>) => {
      if (!socketManager.getSocket().connected) return setGameNotice(GUILD_MSG.noSocket);
      if (event !== "guild_game:progress") setGameNotice(null);
      const args = [{ guild_id: guildId, ...payload }] as unknown as Parameters<ClientEvents[E]>;
      socketManager.emit(event, ...args);
    },
    [guildId],
  );

  // Another role asked for (관전하기, 참가하기): the server moves this socket's seat; the game's state says the role.
  useEffect(() => {
    if (asked.current === spectate) return;
    asked.current = spectate;
    if (!socketManager.getSocket().connected) return setGameNotice(GUILD_MSG.noSocket);
    setGameNotice(null);
    socketManager.emit("guild:join", { guild_id: guildId, spectate });
  }, [guildId, spectate]);

  return { room, lines, game, results, countdown, gameNotice, rejected, failure, sendMessage, act, emitGame };
}
