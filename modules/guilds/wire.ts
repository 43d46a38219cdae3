/**
 * The guilds module's wire shapes (spec part 1 §3, product-rules "Guild wire details"): the HTTP answers are the
 * `Static` of the schemas that check them (model.ts), the socket events' client → server payloads the `Static` of the
 * schemas that validate them (socket.ts), and the server → client ones what the room and the game's presenter send.
 * The web imports these types (type-only) instead of writing them out again.
 */
import type { Static } from "@sinclair/typebox";
import type { PublicRewards } from "../accounts";
import type { ClientEvent } from "../kernel/socket";
import type { GuildGameEndReason, GuildGameStatus, GuildGameView, ParticipantView } from "./guild-game";
import type {
  ActivitySchema,
  ApplicationSchema,
  BoardPostSchema,
  CommentSchema,
  GuildListSchema,
  GuildSchema,
  MemberSchema,
  MyGuildSchema,
  MyInvitationSchema,
  MyRoleSchema,
  RecruitmentListSchema,
  RecruitmentSchema,
} from "./model";
import type { GuildRole } from "./rules";
import type { GuildsService } from "./service";
import type {
  GameStartPayload,
  GameTypingPayload,
  InvitesPayload,
  JoinPayload,
  KickPayload,
  LeavePayload,
  MessagePayload,
  ProblemsPayload,
  RolePayload,
  SettingsPayload,
} from "./socket";

export type { GuildGameStatus, GuildRole };

// ---- HTTP answers

export type Guild = Static<typeof GuildSchema>;
export type GuildPage = Static<typeof GuildListSchema>;
/** A page of a list (guilds, recruitment posts, board posts): the schemas' one page shape. */
export type Paged<T> = Omit<GuildPage, "items"> & { items: T[] };
export type GuildMember = Static<typeof MemberSchema>;
export type Activity = Static<typeof ActivitySchema>;
export type MyInvitation = Static<typeof MyInvitationSchema>;
export type MyGuild = Static<typeof MyGuildSchema>;
/** The caller's standing in a guild (GET /api/guilds/{id}/my-role). */
export type Standing = Static<typeof MyRoleSchema>;
export type RecruitmentPost = Static<typeof RecruitmentSchema>;
export type RecruitmentPage = Static<typeof RecruitmentListSchema>;
export type Application = Static<typeof ApplicationSchema>;
export type GuildPost = Static<typeof BoardPostSchema>;
export type GuildComment = Static<typeof CommentSchema>;

// ---- the guild room's events

/** The answer of an acknowledged admin action: the service's answer (`{ success: true, … }`). */
type Answer<K extends "setProblems" | "kick" | "invite"> = { success: true } & Awaited<ReturnType<GuildsService[K]>>;

export interface GuildsClientEvents {
  "guild:join": ClientEvent<Static<typeof JoinPayload>>;
  "guild:leave": ClientEvent<Static<typeof LeavePayload>>;
  "guild:message": ClientEvent<Static<typeof MessagePayload>>;
  "guild:update_settings": ClientEvent<Static<typeof SettingsPayload>, { success: true; guild: Guild }>;
  "guild:upload_problems": ClientEvent<Static<typeof ProblemsPayload>, Answer<"setProblems">>;
  "guild:update_member_role": ClientEvent<Static<typeof RolePayload>, { success: true; member: GuildMember }>;
  "guild:kick_member": ClientEvent<Static<typeof KickPayload>, Answer<"kick">>;
  "guild:send_invites": ClientEvent<Static<typeof InvitesPayload>, Answer<"invite">>;
  "guild_game:start_request": ClientEvent<Static<typeof GameStartPayload>>;
  "guild_game:progress": ClientEvent<Static<typeof GameTypingPayload>>;
  "guild_game:submission": ClientEvent<Static<typeof GameTypingPayload>>;
}

/** A guild chat line; system lines (slash commands, game notes) carry `is_system` and are not stored (no `id`). */
export interface GuildMessage {
  id?: number;
  guild_id: number;
  user_id: number | null;
  username: string;
  message: string;
  timestamp: string;
  is_system?: boolean;
}

/** `guild:joined`: the whole room state, sent on join and again after every change, with the socket's own role. */
export interface GuildJoined {
  guild: Guild;
  members: GuildMember[];
  problems: string[];
  messages: GuildMessage[];
  is_admin: boolean;
  role: GuildRole;
  member_id: number;
}

/** A member arrived in the room (`guild:user_joined`) or is out of it (`guild:user_left`, `guild:removed`). */
interface MemberMoved {
  guild_id: number;
  user_id: number;
  username: string;
}

/** `guild_game:state` (spec §3 Guild game state plus the times a client needs for its timers). */
export type GuildGameState = GuildGameView;
export type GameParticipant = ParticipantView;

/** One counted completion of `guild_game:results`, by position (the figures of a completion are never null). */
export interface GameResult {
  position: number | null;
  user_id: number;
  username: string;
  wpm: number | null;
  accuracy: number | null;
  completion_time: number | null;
  error_count: number | null;
  win_streak: number | null;
  rewards: PublicRewards | null;
}

export interface GuildGameResults {
  guild_id: number;
  problem: string;
  reason: GuildGameEndReason;
  started_at: string;
  finished_at: string;
  participants: number;
  results: GameResult[];
}

export interface GuildsServerEvents {
  "guild:joined": (payload: GuildJoined) => void;
  "guild:user_joined": (payload: MemberMoved) => void;
  "guild:user_left": (payload: MemberMoved & { reason: string }) => void;
  /** To the removed member's sockets: `message` says why (left, kicked, disbanded). */
  "guild:removed": (payload: MemberMoved & { reason: string; message: string | undefined }) => void;
  "guild:message": (payload: GuildMessage) => void;
  "guild_game:state": (payload: GuildGameState) => void;
  "guild_game:countdown": (payload: { guild_id: number; seconds: number; message: string }) => void;
  "guild_game:start": (payload: { guild_id: number; state: GuildGameState }) => void;
  "guild_game:end": (payload: { guild_id: number; reason: GuildGameEndReason; state: GuildGameState }) => void;
  "guild_game:results": (payload: GuildGameResults) => void;
}

/** Between server processes (the socket.io adapter): a member removed, so each process drops its own sockets' state. */
export interface GuildsInterServerEvents {
  "guilds:member_removed": (event: { guildId: number; userId: number }) => void;
}

declare module "../kernel/socket" {
  interface ClientEvents extends GuildsClientEvents {}
  interface ServerEvents extends GuildsServerEvents {}
  interface InterServerEvents extends GuildsInterServerEvents {}
}
