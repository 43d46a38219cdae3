/**
 * The guilds module's wire shapes (HTTP answers and the guild room's events), as the server declares them
 * (modules/guilds/wire.ts): type-only imports, erased from the bundle.
 */

export type {
  Activity,
  Application,
  GameParticipant,
  GameResult,
  Guild,
  GuildComment,
  GuildGameResults,
  GuildGameState,
  GuildGameStatus,
  GuildJoined,
  GuildMember,
  GuildMessage,
  GuildPost,
  GuildRole,
  MyGuild,
  MyInvitation,
  Paged,
  RecruitmentPost,
  Standing,
} from "../../../../modules/guilds";
export type {
  Acknowledgement as Ack,
  SocketErrorPayload as SocketError,
} from "../../../../modules/kernel/socket";
