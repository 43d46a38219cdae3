import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { AppError } from "../kernel/errors";
import { type AppSocket, type ClientHandlers, socketEvent } from "../kernel/socket";
import { guildsApi } from "./api";
import type { GuildRoom } from "./room";
import { GUILD_MSG, GUILD_ROLES, INVITES_PER_REQUEST } from "./rules";
import type { GuildsClientEvents } from "./wire";

/**
 * Guild ids arrive as numbers or, from a route parameter, as numeric strings. Fields the spec's client also sends
 * (`user_id`) are not declared: identity comes from the handshake only, and undeclared fields are dropped by the
 * shared dispatcher (modules/kernel/socket.ts) before a handler sees the payload. Use TypeBox's `Type.Integer`
 * (JSON as sent), not Elysia's `t.Integer`, which would let numeric strings through as strings.
 */
const GuildId = t.Union([
  Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  t.String({ pattern: "^[1-9][0-9]{0,9}$" }),
]);
const MemberId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const toId = (value: number | string) => Number(value);
/** Longer than any chat line, so a huge string fails here and never reaches the service. */
const TEXT_LIMIT = 1_000;

/** `spectate: true`: watch the guild game without playing (README "Watching"). */
export const JoinPayload = t.Object({ guild_id: GuildId, spectate: t.Optional(t.Boolean()) });
export const LeavePayload = t.Optional(t.Object({ guild_id: t.Optional(GuildId) }));
export const MessagePayload = t.Object({ guild_id: GuildId, message: t.String({ maxLength: TEXT_LIMIT }) });
/** Any integer: the ranges are checked by the service so the answer names the setting (spec §5). */
const Setting = t.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }));
export const SettingsPayload = t.Object({
  guild_id: GuildId,
  settings: t.Object({ max_members: Setting, countdown_seconds: Setting, end_countdown_seconds: Setting }),
});
/** `problems` is checked by the service, so a wrong shape gets the spec's text. */
export const ProblemsPayload = t.Object({ guild_id: GuildId, problems: t.Unknown() });
export const RolePayload = t.Object({ guild_id: GuildId, member_id: MemberId, role: t.UnionEnum(GUILD_ROLES) });
export const KickPayload = t.Object({ guild_id: GuildId, member_id: MemberId });
export const InvitesPayload = t.Object({
  guild_id: GuildId,
  invites: t.Array(
    t.Object({
      username: t.Optional(t.Union([t.String({ maxLength: 200 }), t.Null()])),
      email: t.String({ maxLength: 600 }),
    }),
    { maxItems: INVITES_PER_REQUEST * 5 },
  ),
});

/** The guild game's events (README "Guild game"). */
export const PROGRESS_COST = 0.25;
const Seconds = t.Optional(t.Union([Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }), t.Null()]));
export const GameStartPayload = t.Object({
  guild_id: GuildId,
  problem: t.Optional(t.Union([t.String({ maxLength: TEXT_LIMIT }), t.Null()])),
  countdown_seconds: Seconds,
  end_countdown_seconds: Seconds,
});
export const GameTypingPayload = t.Object({
  guild_id: GuildId,
  typed_text: t.String({ maxLength: TEXT_LIMIT }),
  elapsed_time: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 3_600 }), t.Null()])),
});

/**
 * An admin action of the guild room, acknowledged `{success, error?}`: a refusal's text starts with the spec's
 * message for that action (spec §8, e.g. "설정을 저장하는데 실패했습니다.") followed by the reason.
 */
async function acknowledged<T>(failure: string, work: () => Promise<T>): Promise<{ success: true } & T> {
  try {
    return { success: true, ...(await work()) };
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.status, `${failure} ${error.detail}`, error.code);
    throw error;
  }
}

/** The guild room's client → server events (spec part 1 §7, product-rules "Guild wire details"). */
export function guildSocketEvents(room: GuildRoom): ClientHandlers<GuildsClientEvents> {
  const service = guildsApi(room.ctx).service;
  const actor = (socket: AppSocket) => room.actorOf(socket);
  // Costs (the kernel's SOCKET_BUDGET): 5 for a join (the whole state to the socket, an arrival to the room) and for
  // the admin actions (the state to every member); 1 for a chat line (its own limit comes first) and a leave.
  return {
    "guild:join": socketEvent(JoinPayload, { cost: 5 }, (socket, { guild_id, spectate }) =>
      room.join(socket, toId(guild_id), spectate === true),
    ),
    "guild:leave": socketEvent(LeavePayload, { cost: 1 }, (socket) => room.leave(socket)),
    "guild:message": socketEvent(MessagePayload, { cost: 1 }, (socket, { guild_id, message }) =>
      room.message(socket, toId(guild_id), message),
    ),
    "guild:update_settings": socketEvent(SettingsPayload, { cost: 5 }, (socket, { guild_id, settings }) =>
      acknowledged(GUILD_MSG.settingsFailed, async () => ({
        guild: await service.updateSettings(actor(socket), toId(guild_id), settings),
      })),
    ),
    "guild:upload_problems": socketEvent(ProblemsPayload, { cost: 5 }, (socket, { guild_id, problems }) =>
      acknowledged(GUILD_MSG.problemsFailed, () => service.setProblems(actor(socket), toId(guild_id), problems)),
    ),
    "guild:update_member_role": socketEvent(RolePayload, { cost: 5 }, (socket, { guild_id, member_id, role }) =>
      acknowledged(GUILD_MSG.roleFailed, async () => ({
        member: await service.changeRole(actor(socket), toId(guild_id), member_id, role),
      })),
    ),
    "guild:kick_member": socketEvent(KickPayload, { cost: 5 }, (socket, { guild_id, member_id }) =>
      acknowledged(GUILD_MSG.kickFailed, () => service.kick(actor(socket), toId(guild_id), member_id)),
    ),
    "guild_game:start_request": socketEvent(GameStartPayload, { cost: 5 }, async (socket, { guild_id, ...request }) => {
      await room.startGame(socket, toId(guild_id), request);
    }),
    // Progress comes with every keystroke (a fast typist sends 7–10 a second, more than the budget's 5 a second
    // refill) but answers nobody: the state it changes goes out coalesced, at most 10 frames a second per game.
    // A quarter token lets 20 a second through for good, while a flood is still cut off.
    "guild_game:progress": socketEvent(GameTypingPayload, { cost: PROGRESS_COST }, (socket, { guild_id, typed_text }) =>
      room.progress(socket, toId(guild_id), typed_text),
    ),
    "guild_game:submission": socketEvent(
      GameTypingPayload,
      { cost: 1 },
      (socket, { guild_id, typed_text, elapsed_time }) => room.submit(socket, toId(guild_id), typed_text, elapsed_time),
    ),
    "guild:send_invites": socketEvent(InvitesPayload, { cost: 5 }, (socket, { guild_id, invites }) =>
      acknowledged(GUILD_MSG.invitesFailed, () => service.invite(actor(socket), toId(guild_id), invites)),
    ),
  };
}
