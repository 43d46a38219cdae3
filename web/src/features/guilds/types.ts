/** Wire shapes of the guilds API and the guild room (modules/guilds/presenter.ts, spec part 1 §3). */
import type { GuildRole } from "../../../../modules/guilds/rules";

export type { GuildRole };

export interface Guild {
  id: number;
  name: string;
  description: string;
  created_at: string;
  max_members: number;
  owner_id: number;
  countdown_seconds: number;
  end_countdown_seconds: number;
  member_count: number;
}

export interface GuildMember {
  id: number;
  user_id: number;
  username: string;
  role: GuildRole;
  join_date: string;
}

export interface Paged<T> {
  items: T[];
  total: number;
  total_pages: number;
  page: number;
  size: number;
}

export interface Activity {
  id: number;
  type: string;
  username: string | null;
  message: string;
  created_at: string;
}

export interface MyInvitation {
  id: number;
  guild_id: number;
  guild_name: string;
  invited_by: string;
  created_at: string;
}

export interface MyGuild {
  guild: Guild | null;
  role: GuildRole | null;
  member_id: number | null;
  members: GuildMember[];
  recent_activity: Activity[];
  invitations: MyInvitation[];
}

export interface RecruitmentPost {
  id: number;
  title: string;
  content: string;
  author_id: number;
  author_name: string;
  guild_id: number;
  guild_name: string;
  created_at: string;
  view_count: number;
  reply_count: number;
}

export interface Application {
  id: number;
  guild_id: number;
  post_id: number | null;
  user_id: number;
  username: string;
  message: string;
  status: "pending" | "approved" | "rejected" | "cancelled";
  created_at: string;
}

export interface GuildPost {
  id: number;
  guild_id: number;
  title: string;
  content: string;
  author_id: number;
  author_name: string;
  created_at: string;
  updated_at: string;
  comment_count: number;
}

export interface GuildComment {
  id: number;
  post_id: number;
  content: string;
  author_id: number;
  author_name: string;
  created_at: string;
}

export interface Standing {
  guild_id: number;
  user_id: number;
  member_id: number | null;
  role: GuildRole | null;
  is_member: boolean;
  is_admin: boolean;
}

/** A guild chat line; system lines (slash commands, game notes) carry `is_system` and are not stored. */
export interface GuildMessage {
  id?: number;
  guild_id: number;
  user_id: number | null;
  username: string;
  message: string;
  timestamp: string;
  is_system?: boolean;
}

/** `guild:joined`: the whole room state, sent on join and again after every change. */
export interface GuildJoined {
  guild: Guild;
  members: GuildMember[];
  is_admin: boolean;
  role: GuildRole;
  member_id: number;
  problems: string[];
  messages: GuildMessage[];
}

export type GuildGameStatus = "waiting" | "countdown" | "in_progress" | "finished";

export interface GameParticipant {
  user_id: number;
  username: string;
  progress: number;
  completed: boolean;
  position: number | null;
  wpm: number | null;
  accuracy: number | null;
  completion_time?: number | null;
}

/** `guild_game:state` (spec §3 Guild game state plus the times a client needs for its timers). */
export interface GuildGameState {
  guild_id: number;
  status: GuildGameStatus;
  problem: string | null;
  participants: GameParticipant[];
  countdown_seconds: number;
  end_countdown_seconds: number;
  started_at: string | null;
  ends_at?: string | null;
  finished_at?: string | null;
  end_reason?: string | null;
}

export interface GameResult {
  position: number;
  user_id: number;
  username: string;
  wpm: number;
  accuracy: number;
  completion_time?: number;
}

export interface GuildGameResults {
  guild_id: number;
  problem: string;
  reason?: string;
  results: GameResult[];
}

export interface SocketError {
  message: string;
  code?: string;
  event?: string;
}

/** The acknowledgement of a guild room admin action. */
export type Ack<T = Record<string, unknown>> = ({ success: true } & T) | { success: false; error: string };
