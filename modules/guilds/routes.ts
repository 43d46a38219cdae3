import { Elysia, t } from "elysia";
import { type AuthUser, accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { unprocessable } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { viewerKey } from "../kernel/viewers";
import { writeLimits } from "../kernel/write-limits";
import { guildsApi } from "./api";
import {
  ApplicationListQuery,
  ApplicationParams,
  ApplicationSchema,
  ApplyBody,
  BoardListQuery,
  BoardPostBody,
  BoardPostParams,
  BoardPostSchema,
  CommentBody,
  CommentParams,
  CommentSchema,
  CreateGuildBody,
  DetailResponse,
  GuildListQuery,
  GuildListSchema,
  GuildParams,
  GuildSchema,
  InvitationParams,
  InvitesBody,
  KickSchema,
  MemberListSchema,
  MemberParams,
  MemberSchema,
  MyGuildSchema,
  MyRoleSchema,
  ProblemsBody,
  ProblemsFileBody,
  ProblemsSchema,
  RecruitmentBody,
  RecruitmentListQuery,
  RecruitmentListSchema,
  RecruitmentParams,
  RecruitmentSchema,
  RoleBody,
  SentInvitationSchema,
  SentInvitationsSchema,
  SettingsBody,
  ViewSchema,
} from "./model";
import { BOARD_PAGE_SIZE, checkProblemsFile, LIST_PAGE_SIZE } from "./rules";
import type { Actor } from "./service";

const bearer = [{ bearerAuth: [] }];
const GUILD_NOT_FOUND = "길드를 찾을 수 없습니다";
const NOT_MEMBER = "이 길드의 회원이 아닙니다";
const NOT_ADMIN = "이 길드의 관리자가 아닙니다";
const NOT_STAFF = "이 길드의 관리자·부관리자가 아닙니다";
const NOT_MODERATOR = "작성자나 이 길드의 관리자·부관리자가 아닙니다";
const INVITATION_NOT_YOURS = "본인 이메일로 온 초대가 아닙니다";

/** A route of one guild: the login guard, the service's role check (403) and its guild lookup (404). */
const inGuild = (forbidden: string, notFound = GUILD_NOT_FOUND) =>
  ({ ...loginRequired(forbidden), 404: notFound, 422: true }) as const;

const actorOf = (user: AuthUser): Actor => ({ id: user.id, username: user.username });
const page = (query: { page?: number; size?: number }, size: number) => ({
  page: query.page ?? 1,
  size: query.size ?? size,
});

/**
 * Every guild route of product-rules "Guild wire details", plus the HTTP twins of the guild room's admin actions
 * (settings, problems, roles, kicks, invitations) so pages and scripts need no socket for them. Roles are checked
 * by the service on every call (spec §6, enforced on the server).
 */
export function guildsRoutes(ctx: ModuleContext) {
  const { service } = guildsApi(ctx);
  const { guards } = accountsApi(ctx);
  const actor = async (headers: Record<string, string | undefined>) => actorOf(await guards.requireUser(headers));

  const listDetail = {
    summary: "길드 목록",
    description:
      "해산되지 않은 길드를 최신순으로 page(1부터), size(기본 20, 최대 50)로 나눠 돌려줍니다. q는 이름 검색.",
  };
  const list = ({ query }: { query: typeof GuildListQuery.static }) =>
    service.list({ ...page(query, LIST_PAGE_SIZE), q: query.q });
  const create = async ({
    body,
    headers,
    set,
  }: {
    body: typeof CreateGuildBody.static;
    headers: Record<string, string | undefined>;
    set: { status?: number | string };
  }) => {
    const guild = await service.create(await actor(headers), body);
    set.status = 201;
    return guild;
  };
  const createOptions = {
    // A member makes a guild now and then (and maybe again after disbanding one); a classroom makes its own each.
    writeLimit: { name: "guilds.create", account: 5, address: 100, windowMs: 60 * 60_000 },
    body: CreateGuildBody,
    response: apiResponses(
      { 201: GuildSchema },
      { ...loginRequired(), 409: "이미 길드에 가입했거나 같은 이름의 길드가 있습니다", 422: true },
    ),
    detail: {
      summary: "길드 만들기",
      description:
        "로그인이 필요합니다. 만든 사람이 관리자가 됩니다. 이름 2~20자(대소문자 구분 없이 중복 불가), 소개 200자 이내. 이미 길드에 가입했으면 409.",
      security: bearer,
    },
  };

  return (
    new Elysia({ name: "guilds.routes", prefix: "/guilds", detail: { tags: ["guilds"] } })
      .use(writeLimits(ctx))
      .get("/", list, {
        query: GuildListQuery,
        response: apiResponses({ 200: GuildListSchema }, { 422: true }),
        detail: listDetail,
      })
      .get("", list, {
        query: GuildListQuery,
        response: apiResponses({ 200: GuildListSchema }, { 422: true }),
        detail: { ...listDetail, hide: true },
      })
      .post("/", create, createOptions)
      .post("", create, { ...createOptions, detail: { ...createOptions.detail, hide: true } })
      .get("/my", async ({ headers }) => service.my(await actor(headers)), {
        response: apiResponses({ 200: MyGuildSchema }, loginRequired()),
        detail: {
          summary: "내 길드",
          description: "내 길드, 역할, 회원, 최근 활동(최근 20개), 내 이메일로 온 초대. 길드가 없으면 guild는 null.",
          security: bearer,
        },
      })
      // ---- recruitment
      .get("/recruitment", ({ query }) => service.recruitmentList(page(query, LIST_PAGE_SIZE)), {
        query: RecruitmentListQuery,
        response: apiResponses({ 200: RecruitmentListSchema }, { 422: true }),
        detail: { summary: "길드원 모집 게시판", description: "해산되지 않은 길드의 모집글, 최신순." },
      })
      .post(
        "/recruitment",
        async ({ body, headers, set }) => {
          const post = await service.createRecruitment(await actor(headers), body);
          set.status = 201;
          return post;
        },
        {
          writeLimit: { name: "guilds.recruitment", account: 5, address: 100 },
          body: RecruitmentBody,
          response: apiResponses({ 201: RecruitmentSchema }, inGuild(NOT_STAFF)),
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
            description:
              "길드에 가입하지 않은 로그인 사용자가 모집글의 길드에 신청합니다(길드마다 대기 중인 신청 하나).",
            security: bearer,
          },
        },
      )
      // ---- invitations (the invited account)
      .post(
        "/invitations/:invitationId/accept",
        async ({ params, headers }) => service.acceptInvitation(await actor(headers), params.invitationId),
        {
          writeLimit: { name: "guilds.invitation_answer", account: 30, address: 300 },
          params: InvitationParams,
          response: apiResponses(
            { 200: GuildSchema },
            {
              ...inGuild(INVITATION_NOT_YOURS, "초대(또는 그 길드)를 찾을 수 없습니다"),
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
            { ...inGuild(INVITATION_NOT_YOURS, "초대를 찾을 수 없습니다"), 409: "이미 처리된 초대입니다" },
          ),
          detail: { summary: "길드 초대 거절", description: "초대받은 이메일의 계정만 거절합니다.", security: bearer },
        },
      )
      // ---- one guild
      .get("/:id", ({ params }) => service.get(params.id), {
        params: GuildParams,
        response: apiResponses({ 200: GuildSchema }, { 404: GUILD_NOT_FOUND, 422: true }),
        detail: { summary: "길드 정보", description: "해산되지 않은 길드 하나와 현재 회원 수, 게임 설정." },
      })
      .delete("/:id", async ({ params, headers }) => service.disband(await actor(headers), params.id), {
        writeLimit: { name: "guilds.disband", account: 5, address: 100, windowMs: 60 * 60_000 },
        params: GuildParams,
        response: apiResponses({ 200: DetailResponse }, inGuild(NOT_ADMIN)),
        detail: {
          summary: "길드 해산",
          description: "길드 관리자만. 기록은 남고(소프트 삭제) 모든 회원이 탈퇴 처리됩니다.",
          security: bearer,
        },
      })
      .post("/:id/leave", async ({ params, headers }) => service.leave(await actor(headers), params.id), {
        writeLimit: { name: "guilds.leave", account: 10, address: 200 },
        params: GuildParams,
        response: apiResponses(
          { 200: DetailResponse },
          { ...inGuild(NOT_MEMBER), 409: "마지막 관리자는 떠날 수 없습니다" },
        ),
        detail: {
          summary: "길드 탈퇴",
          description: "마지막 관리자는 역할을 넘기거나 길드를 해산하기 전에는 떠날 수 없습니다(409).",
          security: bearer,
        },
      })
      .get("/:id/members", async ({ params, headers }) => service.members(await actor(headers), params.id), {
        params: GuildParams,
        response: apiResponses({ 200: MemberListSchema }, inGuild(NOT_MEMBER)),
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
            inGuild("이 길드의 관리자가 아니거나 대상이 관리자입니다", "길드 또는 회원을 찾을 수 없습니다"),
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
          response: apiResponses(
            { 200: KickSchema },
            inGuild("이 회원을 추방할 권한이 없습니다", "길드 또는 회원을 찾을 수 없습니다"),
          ),
          detail: {
            summary: "회원 추방",
            description:
              "관리자는 부관리자와 회원을, 부관리자는 일반 회원만 추방합니다. 관리자와 자기 자신은 추방할 수 없습니다.",
            security: bearer,
          },
        },
      )
      .put(
        "/:id/settings",
        async ({ params, body, headers }) => service.updateSettings(await actor(headers), params.id, body),
        {
          writeLimit: { name: "guilds.settings", account: 30, address: 300 },
          params: GuildParams,
          body: SettingsBody,
          response: apiResponses({ 200: GuildSchema }, inGuild(NOT_ADMIN)),
          detail: {
            summary: "길드 설정",
            description:
              "길드 관리자만. max_members 5~100, countdown_seconds 1~10, end_countdown_seconds 30~300. 범위를 벗어나면 422이고 아무것도 저장하지 않습니다.",
            security: bearer,
          },
        },
      )
      .get("/:id/problems", async ({ params, headers }) => service.problems(await actor(headers), params.id), {
        params: GuildParams,
        response: apiResponses({ 200: ProblemsSchema }, inGuild(NOT_MEMBER)),
        detail: { summary: "길드 문제 목록", description: "길드 회원만 봅니다.", security: bearer },
      })
      .put(
        "/:id/problems",
        async ({ params, body, headers }) => service.setProblems(await actor(headers), params.id, body.problems),
        {
          // 200 problems of 500 Korean characters are ~300 KB of JSON.
          writeLimit: { name: "guilds.problems", account: 30, address: 300, body: 512 * 1024 },
          params: GuildParams,
          body: ProblemsBody,
          response: apiResponses({ 200: ProblemsSchema }, inGuild(NOT_ADMIN)),
          detail: {
            summary: "길드 문제 저장",
            description:
              "길드 관리자만. problems는 문자열 배열(빈 문제는 빠집니다, 200개·각 500자까지). 목록을 통째로 바꿉니다.",
            security: bearer,
          },
        },
      )
      .post(
        "/:id/problems/file",
        async ({ params, body, headers }) => {
          const who = await actor(headers);
          const check = checkProblemsFile(body.file.name, body.file.type, await body.file.text());
          if (!check.ok) throw unprocessable(check.error);
          return service.setProblems(who, params.id, check.value);
        },
        {
          writeLimit: { name: "guilds.problems", account: 30, address: 300, body: 512 * 1024 },
          params: GuildParams,
          body: ProblemsFileBody,
          response: apiResponses({ 200: ProblemsSchema }, inGuild(NOT_ADMIN)),
          detail: {
            summary: "길드 문제 파일 올리기",
            description: "길드 관리자만. multipart의 file: 문자열 배열을 담은 JSON 파일. 목록을 통째로 바꿉니다.",
            security: bearer,
          },
        },
      )
      .get(
        "/:id/invitations",
        async ({ params, headers }) => service.sentInvitations(await actor(headers), params.id),
        {
          params: GuildParams,
          response: apiResponses({ 200: t.Array(SentInvitationSchema) }, inGuild(NOT_ADMIN)),
          detail: { summary: "보낸 초대(대기 중)", description: "길드 관리자만.", security: bearer },
        },
      )
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
            { ...inGuild(NOT_ADMIN), 409: "이미 초대했거나 이미 회원인 이메일이 있습니다" },
          ),
          detail: {
            summary: "이메일로 초대",
            description:
              "길드 관리자만. 한 번에 20명까지, 이메일에는 @가 있어야 하고 중복은 안 됩니다. 이미 초대했거나 이미 회원인 이메일이 있으면 409이고 아무도 초대하지 않습니다.",
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
          response: apiResponses({ 200: t.Array(ApplicationSchema) }, inGuild(NOT_STAFF)),
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
              ...inGuild(NOT_STAFF, "길드 또는 가입 신청을 찾을 수 없습니다"),
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
            { ...inGuild(NOT_STAFF, "길드 또는 가입 신청을 찾을 수 없습니다"), 409: "이미 처리된 신청입니다" },
          ),
          detail: { summary: "가입 신청 거절", description: "길드 관리자와 부관리자만.", security: bearer },
        },
      )
      // ---- guild board (members only)
      .get(
        "/:id/board",
        async ({ params, query, headers }) =>
          service.boardList(await actor(headers), params.id, page(query, BOARD_PAGE_SIZE)),
        {
          params: GuildParams,
          query: BoardListQuery,
          response: apiResponses({ 200: t.Array(BoardPostSchema) }, inGuild(NOT_MEMBER)),
          detail: { summary: "길드 게시판 목록", description: "길드 회원만. 최신순(기본 50개).", security: bearer },
        },
      )
      .post(
        "/:id/board",
        async ({ params, body, headers, set }) => {
          const post = await service.boardCreate(await actor(headers), params.id, body);
          set.status = 201;
          return post;
        },
        {
          writeLimit: { name: "guilds.board_post", account: 10, address: 200 },
          params: GuildParams,
          body: BoardPostBody,
          response: apiResponses({ 201: BoardPostSchema }, inGuild(NOT_MEMBER)),
          detail: {
            summary: "길드 게시글 쓰기",
            description: "길드 회원만. 제목과 내용을 모두 입력해야 합니다.",
            security: bearer,
          },
        },
      )
      .get(
        "/:id/board/:postId",
        async ({ params, headers }) => service.boardGet(await actor(headers), params.id, params.postId),
        {
          params: BoardPostParams,
          response: apiResponses({ 200: BoardPostSchema }, inGuild(NOT_MEMBER, "길드 또는 게시글을 찾을 수 없습니다")),
          detail: { summary: "길드 게시글 보기", description: "길드 회원만.", security: bearer },
        },
      )
      .put(
        "/:id/board/:postId",
        async ({ params, body, headers }) => service.boardUpdate(await actor(headers), params.id, params.postId, body),
        {
          writeLimit: { name: "guilds.board_edit", account: 30, address: 300 },
          params: BoardPostParams,
          body: BoardPostBody,
          response: apiResponses(
            { 200: BoardPostSchema },
            inGuild(NOT_MODERATOR, "길드 또는 게시글을 찾을 수 없습니다"),
          ),
          detail: {
            summary: "길드 게시글 수정",
            description: "작성자나 길드 관리자·부관리자만.",
            security: bearer,
          },
        },
      )
      .delete(
        "/:id/board/:postId",
        async ({ params, headers }) => service.boardDelete(await actor(headers), params.id, params.postId),
        {
          writeLimit: { name: "guilds.board_delete", account: 60, address: 300 },
          params: BoardPostParams,
          response: apiResponses(
            { 200: DetailResponse },
            inGuild(NOT_MODERATOR, "길드 또는 게시글을 찾을 수 없습니다"),
          ),
          detail: {
            summary: "길드 게시글 삭제",
            description: "작성자나 길드 관리자·부관리자만(소프트 삭제).",
            security: bearer,
          },
        },
      )
      .get(
        "/:id/board/:postId/comments",
        async ({ params, headers }) => service.comments(await actor(headers), params.id, params.postId),
        {
          params: BoardPostParams,
          response: apiResponses(
            { 200: t.Array(CommentSchema) },
            inGuild(NOT_MEMBER, "길드 또는 게시글을 찾을 수 없습니다"),
          ),
          detail: { summary: "길드 게시글 댓글", description: "길드 회원만. 오래된 순.", security: bearer },
        },
      )
      .post(
        "/:id/board/:postId/comments",
        async ({ params, body, headers, set }) => {
          const comment = await service.addComment(await actor(headers), params.id, params.postId, body);
          set.status = 201;
          return comment;
        },
        {
          writeLimit: { name: "guilds.comment", account: 20, address: 300 },
          params: BoardPostParams,
          body: CommentBody,
          response: apiResponses({ 201: CommentSchema }, inGuild(NOT_MEMBER, "길드 또는 게시글을 찾을 수 없습니다")),
          detail: { summary: "길드 댓글 쓰기", description: "길드 회원만. 빈 댓글은 안 됩니다.", security: bearer },
        },
      )
      .delete(
        "/:id/board/:postId/comments/:commentId",
        async ({ params, headers }) =>
          service.deleteComment(await actor(headers), params.id, params.postId, params.commentId),
        {
          writeLimit: { name: "guilds.comment_delete", account: 60, address: 300 },
          params: CommentParams,
          response: apiResponses(
            { 200: DetailResponse },
            inGuild(NOT_MODERATOR, "길드, 게시글 또는 댓글을 찾을 수 없습니다"),
          ),
          detail: {
            summary: "길드 댓글 삭제",
            description: "작성자나 길드 관리자·부관리자만(소프트 삭제).",
            security: bearer,
          },
        },
      )
  );
}
