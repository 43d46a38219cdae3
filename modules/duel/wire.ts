/**
 * The duel's socket events (spec part 2 §7, product-rules "Duel wire details"): the client → server payloads are the
 * `Static` of the schemas that validate them (socket.ts), the server → client ones what the presenter and the
 * runtime send. Every `duel:*` event of a duel carries its `session_id`. The web imports these types (type-only).
 */
import type { Static } from "@sinclair/typebox";
import type { ClientEvent } from "../kernel/socket";
import type { BlockStatus, BlockView, DuelResult, DuelStateView, Side } from "./duel-mode";
import type { ChallengeClosedReason } from "./messages";
import type { DuelStatsSchema } from "./model";
import type { statsOf } from "./presenter";
import type { OnlineUser } from "./runtime";
import type {
  ChallengeIdPayload,
  ChallengePayload,
  ChallengeSettingPayload,
  HeartbeatPayload,
  WatchChatPayload,
  WatchPayload,
  WordPayload,
} from "./socket";

export type { BlockStatus, BlockView, DuelStateView, OnlineUser, Side };

/** The answer of `GET /api/duel/stats/me` (the profile's duel figures). */
export type DuelStatsAnswer = Static<typeof DuelStatsSchema>;

/** The answer of `duel_get_online_users` (with `success`) and the payload of `duel:user_list_update`. */
export interface OnlineList {
  users: OnlineUser[];
  waiting_count: number;
  online_count: number;
  /** The asker's own sid (null without one, and in the broadcast: a client knows its own). */
  my_sid: string | null;
}

export interface DuelClientEvents {
  duel_enter_menu: ClientEvent<unknown>;
  duel_leave_menu: ClientEvent<unknown>;
  duel_heartbeat: ClientEvent<Static<typeof HeartbeatPayload>>;
  duel_get_online_users: ClientEvent<unknown, { success: true } & OnlineList>;
  duel_update_user_list_force: ClientEvent<unknown>;
  duel_find_match: ClientEvent<unknown>;
  duel_cancel_match: ClientEvent<unknown>;
  duel_player_ready: ClientEvent<unknown>;
  duel_word_typed: ClientEvent<Static<typeof WordPayload>>;
  duel_leave_game: ClientEvent<unknown>;
  /** Challenges a listed member by their sid (README "Direct challenges"). */
  duel_challenge: ClientEvent<
    Static<typeof ChallengePayload>,
    { success: true; challenge_id: string; expires_in: number }
  >;
  duel_challenge_accept: ClientEvent<Static<typeof ChallengeIdPayload>, { success: true; session_id: string }>;
  duel_challenge_decline: ClientEvent<Static<typeof ChallengeIdPayload>>;
  /** The challenger takes a pending challenge back. */
  duel_challenge_cancel: ClientEvent<Static<typeof ChallengeIdPayload>>;
  /** Reads (no field) or sets the member's "대결 신청 받기". */
  duel_challenge_setting: ClientEvent<
    Static<typeof ChallengeSettingPayload>,
    { success: true; accept_challenges: boolean }
  >;
  /** Watches a duel in play (README "Watching"); the field comes as `duel:watch_state`. */
  duel_watch: ClientEvent<Static<typeof WatchPayload>, { success: true; session_id: string }>;
  duel_watch_leave: ClientEvent<unknown>;
  /** A chat line to the duel's other watchers (never to its players). */
  duel_watch_chat: ClientEvent<Static<typeof WatchChatPayload>>;
}

/** Who challenges, as the challenged member's page shows it. */
export interface Challenger {
  sid: string;
  nickname: string;
  /** The challenger's duel rating (1500 before a first stored duel). */
  rating: number;
}

/** The result of `duel:game_over`, with its Korean reason; `rated`: whether the duel counts (stored). */
export type DuelResultView = DuelResult & { reason_text: string; rated?: boolean };

/** `duel:stats_update`: a member's figures after a stored duel; `rated` false when the pair's daily limit was reached. */
export type DuelStats = ReturnType<typeof statsOf> & { rated: boolean };

interface InDuel {
  session_id: string;
}

export interface DuelServerEvents {
  "duel:user_list_update": (payload: OnlineList) => void;
  "duel:match_found": (payload: InDuel & { your_side: Side; opponent_nickname: string; opponent_sid: string }) => void;
  "duel:countdown": (payload: InDuel & { countdown: number }) => void;
  "duel:game_start": (payload: InDuel & { state: DuelStateView }) => void;
  "duel:bullet_fired": (payload: InDuel & { bullet: { side: Side; target_block_id: number } }) => void;
  "duel:word_position_update": (
    payload: InDuel & {
      block_id: number;
      status: BlockStatus;
      speed: number;
      x: number;
      y: number;
      server_time: string;
    },
  ) => void;
  "duel:block_defended": (payload: InDuel & { block_id: number; side: Side; new_blocks: BlockView[] }) => void;
  "duel:life_update": (payload: InDuel & { player_side: Side; remaining_lives: number }) => void;
  "duel:new_word": (payload: InDuel & { replaced_block_id: number; word_blocks: BlockView[] }) => void;
  "duel:time_update": (payload: InDuel & { remaining_time: number }) => void;
  "duel:game_over": (payload: InDuel & { result: DuelResultView }) => void;
  /** To the player who stays: the other side left or lost its connection. */
  "duel:opponent_left": (payload: InDuel & { side: Side }) => void;
  "duel:opponent_disconnected": (payload: InDuel & { side: Side }) => void;
  "duel:stats_update": (payload: DuelStats) => void;
  /** To every socket of the challenged member: accept or decline within `expires_in` seconds. */
  "duel:challenge_received": (payload: { challenge_id: string; from: Challenger; expires_in: number }) => void;
  /** To the challenging socket and every socket of the challenged member: the challenge is no longer pending. */
  "duel:challenge_closed": (payload: {
    challenge_id: string;
    reason: ChallengeClosedReason;
    /** Korean, for either side. */
    message: string;
  }) => void;
  /**
   * To a watcher's socket when it starts watching: the duel as it is (names and ratings of both sides in `state`),
   * the countdown number while it counts, and the result once over. The duel's own events follow.
   */
  "duel:watch_state": (
    payload: InDuel & { state: DuelStateView; countdown: number | null; result: DuelResultView | null },
  ) => void;
  /** A watcher's chat line, to the duel's watchers only (`line_id`: its id in the server's chat history, for reports). */
  "duel:watch_chat": (
    payload: InDuel & { line_id?: string; sid: string; nickname: string; message: string; timestamp: string },
  ) => void;
}

declare module "../kernel/socket" {
  interface ClientEvents extends DuelClientEvents {}
  interface ServerEvents extends DuelServerEvents {}
}
