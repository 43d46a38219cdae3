import type { ModuleContext } from "../../kernel/define-module";
import { apiResponses, loginRequired } from "../../kernel/http";
import { guildsApi } from "../api";
import {
  DetailResponse,
  GuildParams,
  KickSchema,
  MemberListSchema,
  MemberParams,
  MemberSchema,
  MyRoleSchema,
  RoleBody,
} from "../model";
import {
  ADMINS_ONLY,
  actorOf,
  bearer,
  GUILD_NOT_FOUND,
  guildRoutes,
  inGuild,
  MEMBERS_ONLY,
  STAFF_ONLY,
} from "../routes-kit";
import { GUILD_MSG } from "../rules";

/** A kick's refusals: the role check, then `kickRefusal`'s rules for staff. */
const KICK_REFUSALS = [
  ...STAFF_ONLY,
  GUILD_MSG.cannotKickSelf,
  GUILD_MSG.adminNotKickable,
  GUILD_MSG.moderatorKicksMembersOnly,
];

/** Who is in a guild: leaving, the member list, one's own role, role changes and kicks. */
export function guildMembersRoutes(ctx: ModuleContext) {
  const service = guildsApi(ctx).members;
  const actor = actorOf(ctx);

  return guildRoutes(ctx, "members")
    .post("/:id/leave", async ({ params, headers }) => service.leave(await actor(headers), params.id), {
      writeLimit: { name: "guilds.leave", account: 10, address: 200 },
      params: GuildParams,
      response: apiResponses(
        { 200: DetailResponse },
        { ...inGuild(MEMBERS_ONLY), 409: "마지막 관리자는 떠날 수 없습니다" },
      ),
      detail: {
        summary: "길드 탈퇴",
        description: "마지막 관리자는 역할을 넘기거나 길드를 해산하기 전에는 떠날 수 없습니다(409).",
        security: bearer,
      },
    })
    .get("/:id/members", async ({ params, headers }) => service.members(await actor(headers), params.id), {
      params: GuildParams,
      response: apiResponses({ 200: MemberListSchema }, inGuild(MEMBERS_ONLY)),
      detail: { summary: "길드 회원 목록", description: "길드 회원만 봅니다.", security: bearer },
    })
    .get("/:id/members/me", async ({ params, headers }) => service.myRole(await actor(headers), params.id), {
      params: GuildParams,
      response: apiResponses({ 200: MyRoleSchema }, { ...loginRequired(), 404: GUILD_NOT_FOUND, 422: true }),
      detail: {
        summary: "이 길드에서 내 역할",
        description: "회원이 아니면 role은 null입니다.",
        security: bearer,
      },
    })
    .put(
      "/:id/members/:memberId/role",
      async ({ params, body, headers }) =>
        service.changeRole(await actor(headers), params.id, params.memberId, body.role),
      {
        writeLimit: { name: "guilds.role", account: 60, address: 300 },
        params: MemberParams,
        body: RoleBody,
        response: apiResponses(
          { 200: MemberSchema },
          inGuild([...ADMINS_ONLY, GUILD_MSG.adminRoleLocked], "길드 또는 회원을 찾을 수 없습니다"),
        ),
        detail: {
          summary: "회원 역할 변경",
          description: "길드 관리자만. 관리자의 역할은 바꿀 수 없습니다. memberId는 길드 회원의 id입니다.",
          security: bearer,
        },
      },
    )
    .delete(
      "/:id/members/:memberId",
      async ({ params, headers }) => service.kick(await actor(headers), params.id, params.memberId),
      {
        // A guild holds up to 100 members: clearing it out is bulk work.
        writeLimit: { name: "guilds.kick", account: 100, address: 300 },
        params: MemberParams,
        response: apiResponses({ 200: KickSchema }, inGuild(KICK_REFUSALS, "길드 또는 회원을 찾을 수 없습니다")),
        detail: {
          summary: "회원 추방",
          description:
            "관리자는 부관리자와 회원을, 부관리자는 일반 회원만 추방합니다. 관리자와 자기 자신은 추방할 수 없습니다.",
          security: bearer,
        },
      },
    );
}
