import { t } from "elysia";
import type { ModuleContext } from "../../kernel/define-module";
import { apiResponses } from "../../kernel/http";
import { guildsApi } from "../api";
import {
  DetailResponse,
  GuildParams,
  GuildSchema,
  InvitationParams,
  InvitesBody,
  SentInvitationSchema,
  SentInvitationsSchema,
} from "../model";
import { ADMINS_ONLY, actorOf, bearer, guildRoutes, inGuild } from "../routes-kit";
import { GUILD_MSG } from "../rules";

const NOT_YOURS = [GUILD_MSG.invitationNotYours];

/** Invitations by e-mail: the invited account answers; the guild's admins send them and see the pending ones. */
export function guildInvitationsRoutes(ctx: ModuleContext) {
  const service = guildsApi(ctx).invitations;
  const actor = actorOf(ctx);

  return guildRoutes(ctx, "invitations")
    .post(
      "/invitations/:invitationId/accept",
      async ({ params, headers }) => service.acceptInvitation(await actor(headers), params.invitationId),
      {
        writeLimit: { name: "guilds.invitation_answer", account: 30, address: 300 },
        params: InvitationParams,
        response: apiResponses(
          { 200: GuildSchema },
          {
            ...inGuild(NOT_YOURS, "초대(또는 그 길드)를 찾을 수 없습니다"),
            409: "이미 처리된 초대이거나, 이미 길드에 가입했거나, 길드가 가득 찼습니다",
          },
        ),
        detail: {
          summary: "길드 초대 수락",
          description: "초대받은 이메일의 계정만 수락합니다. 이미 길드에 가입했거나 길드가 가득 차면 409.",
          security: bearer,
        },
      },
    )
    .post(
      "/invitations/:invitationId/decline",
      async ({ params, headers }) => service.declineInvitation(await actor(headers), params.invitationId),
      {
        writeLimit: { name: "guilds.invitation_answer", account: 30, address: 300 },
        params: InvitationParams,
        response: apiResponses(
          { 200: DetailResponse },
          { ...inGuild(NOT_YOURS, "초대를 찾을 수 없습니다"), 409: "이미 처리된 초대입니다" },
        ),
        detail: { summary: "길드 초대 거절", description: "초대받은 이메일의 계정만 거절합니다.", security: bearer },
      },
    )
    .get("/:id/invitations", async ({ params, headers }) => service.sentInvitations(await actor(headers), params.id), {
      params: GuildParams,
      response: apiResponses({ 200: t.Array(SentInvitationSchema) }, inGuild(ADMINS_ONLY)),
      detail: { summary: "보낸 초대(대기 중)", description: "길드 관리자만.", security: bearer },
    })
    .post(
      "/:id/invitations",
      async ({ params, body, headers, set }) => {
        const sent = await service.invite(await actor(headers), params.id, body.invites);
        set.status = 201;
        return sent;
      },
      {
        // Each call invites up to 20 e-mails.
        writeLimit: { name: "guilds.invite", account: 20, address: 200 },
        params: GuildParams,
        body: InvitesBody,
        response: apiResponses(
          { 201: SentInvitationsSchema },
          { ...inGuild(ADMINS_ONLY), 409: "이미 초대했거나 이미 회원인 이메일이 있습니다" },
        ),
        detail: {
          summary: "이메일로 초대",
          description:
            "길드 관리자만. 한 번에 20명까지, 이메일에는 @가 있어야 하고 중복은 안 됩니다. 이미 초대했거나 이미 회원인 이메일이 있으면 409이고 아무도 초대하지 않습니다.",
          security: bearer,
        },
      },
    );
}
