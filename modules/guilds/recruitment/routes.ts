import { t } from "elysia";
import { accountsApi } from "../../accounts";
import type { ModuleContext } from "../../kernel/define-module";
import { apiResponses, loginRequired } from "../../kernel/http";
import { TEXT_REFUSED } from "../../kernel/speech";
import { viewerKey } from "../../kernel/viewers";
import { guildsApi } from "../api";
import {
  ApplicationListQuery,
  ApplicationParams,
  ApplicationSchema,
  ApplyBody,
  DetailResponse,
  GuildParams,
  MemberSchema,
  RecruitmentBody,
  RecruitmentListQuery,
  RecruitmentListSchema,
  RecruitmentParams,
  RecruitmentSchema,
  ViewSchema,
} from "../model";
import { actorOf, bearer, guildRoutes, inGuild, page, STAFF_ONLY, writerOf } from "../routes-kit";
import { LIST_PAGE_SIZE } from "../rules";

/** The public recruitment board (posts, views, applying) and the applications staff decide on. */
export function guildRecruitmentRoutes(ctx: ModuleContext) {
  const service = guildsApi(ctx).recruitment;
  const actor = actorOf(ctx);
  const writer = writerOf(ctx);
  const { guards } = accountsApi(ctx);

  return guildRoutes(ctx, "recruitment")
    .get("/recruitment", ({ query }) => service.recruitmentList(page(query, LIST_PAGE_SIZE)), {
      query: RecruitmentListQuery,
      response: apiResponses({ 200: RecruitmentListSchema }, { 422: true }),
      detail: { summary: "길드원 모집 게시판", description: "해산되지 않은 길드의 모집글, 최신순." },
    })
    .post(
      "/recruitment",
      async ({ body, headers, set }) => {
        const post = await service.createRecruitment(await writer(headers, body), body);
        set.status = 201;
        return post;
      },
      {
        writeLimit: { name: "guilds.recruitment", account: 5, address: 100 },
        body: RecruitmentBody,
        response: apiResponses({ 201: RecruitmentSchema }, { ...inGuild(STAFF_ONLY), 400: TEXT_REFUSED }),
        detail: {
          summary: "모집글 쓰기",
          description: "그 길드의 관리자와 부관리자만 씁니다. 모든 필드가 필요합니다(제목 100자, 내용 2,000자 이내).",
          security: bearer,
        },
      },
    )
    .get("/recruitment/:postId", ({ params }) => service.recruitment(params.postId), {
      params: RecruitmentParams,
      response: apiResponses({ 200: RecruitmentSchema }, { 404: "모집글을 찾을 수 없습니다", 422: true }),
      detail: {
        summary: "모집글 보기",
        description: "해산되지 않은 길드의 모집글 하나를 내용과 함께 돌려줍니다. 조회수는 올리지 않습니다.",
      },
    })
    .post(
      "/recruitment/:postId/view",
      async ({ params, request, server, headers }) =>
        service.viewRecruitment(
          params.postId,
          viewerKey((await guards.optionalUser(headers))?.id, request, server, ctx.config.trustProxy),
        ),
      {
        writeLimit: { name: "guilds.recruitment_view", account: 60, address: 300, windowMs: 60_000 },
        params: RecruitmentParams,
        response: apiResponses({ 200: ViewSchema }, { 404: "모집글을 찾을 수 없습니다", 422: true }),
        detail: {
          summary: "모집글 조회수 올리기",
          description: "같은 사람(로그인 사용자, 아니면 IP+브라우저)의 같은 글 조회는 10분에 한 번만 셉니다.",
        },
      },
    )
    .post(
      "/recruitment/:postId/apply",
      async ({ params, body, headers, set }) => {
        const application = await service.apply(await actor(headers), params.postId, body);
        set.status = 201;
        return application;
      },
      {
        writeLimit: { name: "guilds.apply", account: 10, address: 200 },
        params: RecruitmentParams,
        body: ApplyBody,
        response: apiResponses(
          { 201: ApplicationSchema },
          {
            ...loginRequired(),
            404: "모집글을 찾을 수 없습니다",
            409: "이미 길드에 가입했거나 이 길드에 대기 중인 신청이 있습니다",
            422: true,
          },
        ),
        detail: {
          summary: "길드 가입 신청",
          description: "길드에 가입하지 않은 로그인 사용자가 모집글의 길드에 신청합니다(길드마다 대기 중인 신청 하나).",
          security: bearer,
        },
      },
    )
    .get(
      "/:id/applications",
      async ({ params, query, headers }) => service.applications(await actor(headers), params.id, query.status),
      {
        params: GuildParams,
        query: ApplicationListQuery,
        response: apiResponses({ 200: t.Array(ApplicationSchema) }, inGuild(STAFF_ONLY)),
        detail: { summary: "가입 신청 목록", description: "길드 관리자와 부관리자만. 최신순.", security: bearer },
      },
    )
    .post(
      "/:id/applications/:applicationId/approve",
      async ({ params, headers }) => service.approve(await actor(headers), params.id, params.applicationId),
      {
        writeLimit: { name: "guilds.application_answer", account: 100, address: 300 },
        params: ApplicationParams,
        response: apiResponses(
          { 200: MemberSchema },
          {
            ...inGuild(STAFF_ONLY, "길드 또는 가입 신청을 찾을 수 없습니다"),
            409: "이미 처리된 신청이거나, 신청자가 다른 길드에 가입했거나, 길드가 가득 찼습니다",
          },
        ),
        detail: {
          summary: "가입 신청 승인",
          description: "길드 관리자와 부관리자만. 신청자가 다른 길드에 가입했거나 길드가 가득 차면 409.",
          security: bearer,
        },
      },
    )
    .post(
      "/:id/applications/:applicationId/reject",
      async ({ params, headers }) => service.reject(await actor(headers), params.id, params.applicationId),
      {
        writeLimit: { name: "guilds.application_answer", account: 100, address: 300 },
        params: ApplicationParams,
        response: apiResponses(
          { 200: DetailResponse },
          { ...inGuild(STAFF_ONLY, "길드 또는 가입 신청을 찾을 수 없습니다"), 409: "이미 처리된 신청입니다" },
        ),
        detail: { summary: "가입 신청 거절", description: "길드 관리자와 부관리자만.", security: bearer },
      },
    );
}
