import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { Actor } from "../admin";
import type { ModuleContext } from "../kernel/define-module";
import { ADMIN_REQUIRED, apiResponses, loginRequired } from "../kernel/http";
import { writeLimits } from "../kernel/write-limits";
import {
  ActionBody,
  BlockListSchema,
  DetailSchema,
  GroupSchema,
  MineSchema,
  NoticeParams,
  QueueQuery,
  QueueSchema,
  ReportAnswer,
  ReportBody,
  ReportParams,
  RestrictionListSchema,
  RestrictionParams,
  RestrictionSchema,
  SummarySchema,
  UserParams,
  WordAnswer,
  WordBody,
  WordListSchema,
  WordParams,
} from "./model";
import { moderationApi } from "./service";

const bearer = [{ bearerAuth: [] }];
const doc = (summary: string, description: string) => ({ summary, description, security: bearer });
const REPORT_NOT_FOUND = "신고를 찾을 수 없습니다";

/** A member's side: reporting, and their own warnings and mute. */
function memberRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  const service = moderationApi(ctx);
  return new Elysia({ name: "moderation.member.routes", detail: { tags: ["moderation"] } })
    .use(writeLimits(ctx))
    .post(
      "/reports",
      async ({ body, headers, set }) => {
        const user = await guards.requireUser(headers);
        const answer = await service.report(user, body);
        set.status = 201;
        return answer;
      },
      {
        // A member reports now and then; a classroom reporting one spammer is one report each.
        writeLimit: { name: "moderation.report", account: 10, address: 100 },
        body: ReportBody,
        response: apiResponses(
          { 201: ReportAnswer },
          {
            ...loginRequired(),
            400: "자기 자신이거나 손님의 채팅이거나, 리플레이가 그 사용자의 것이 아니거나, 메모가 500자를 넘습니다",
            404: "신고할 채팅·글·사용자·리플레이를 찾을 수 없습니다",
            409: "이미 신고한 대상입니다(관리자가 처리하기 전)",
            422: true,
          },
        ),
        detail: doc(
          "신고하기",
          "채팅 한 줄(방·길드·대결 관전, line_id), 글이나 댓글(자유게시판·길드 게시판·모집글), 플레이어(user_id, 부정행위면 replay_key)를 " +
            "사유(욕설/비방, 도배, 부정행위, 부적절한 닉네임, 기타)와 선택 메모(500자)로 신고합니다. 신고 당시의 내용이 증거로 남습니다 " +
            "(채팅은 그 줄과 앞 20줄). 같은 대상은 처리되기 전까지 한 번만 신고할 수 있습니다.",
        ),
      },
    )
    .get("/moderation/me", async ({ headers }) => service.mine((await guards.requireUser(headers)).id), {
      response: apiResponses({ 200: MineSchema }, loginRequired()),
      detail: doc(
        "내 경고, 제한, 차단",
        "아직 확인하지 않은 경고, 지금 채팅·글쓰기가 제한되어 있으면 그 끝과 사유, 차단한 사용자 ID.",
      ),
    })
    .get("/blocks", async ({ headers }) => service.listBlocks((await guards.requireUser(headers)).id), {
      response: apiResponses({ 200: BlockListSchema }, loginRequired()),
      detail: doc("차단한 사용자", "내가 차단한 사용자, 최근에 차단한 순서. 이들의 채팅과 글은 내게 보이지 않습니다."),
    })
    .put(
      "/blocks/:userId",
      async ({ params, headers }) => service.block((await guards.requireUser(headers)).id, params.userId),
      {
        writeLimit: { name: "moderation.block", account: 60, address: 300 },
        params: UserParams,
        response: apiResponses(
          { 200: DetailSchema },
          {
            ...loginRequired(),
            400: "자기 자신이거나 이미 500명을 차단했습니다",
            404: "차단할 사용자를 찾을 수 없습니다",
            422: true,
          },
        ),
        detail: doc(
          "사용자 차단",
          "이 사용자의 채팅과 글을 내게서 숨깁니다(목록은 서버에 남습니다). 이미 차단했으면 그대로입니다. 500명까지.",
        ),
      },
    )
    .delete(
      "/blocks/:userId",
      async ({ params, headers }) => service.unblock((await guards.requireUser(headers)).id, params.userId),
      {
        writeLimit: { name: "moderation.block", account: 60, address: 300 },
        params: UserParams,
        response: apiResponses(
          { 200: DetailSchema },
          { ...loginRequired(), 404: "차단하지 않은 사용자입니다", 422: true },
        ),
        detail: doc("차단 풀기", "이 사용자의 채팅과 글이 다시 보입니다."),
      },
    )
    .post(
      "/moderation/notices/:id/seen",
      async ({ params, headers }) => service.markSeen((await guards.requireUser(headers)).id, params.id),
      {
        writeLimit: { name: "moderation.notice_seen", account: 60, address: 300 },
        params: NoticeParams,
        response: apiResponses(
          { 200: DetailSchema },
          { ...loginRequired(), 404: "알림을 찾을 수 없습니다", 422: true },
        ),
        detail: doc("경고 확인", "본인의 경고를 확인한 것으로 표시합니다. 다시 보이지 않습니다."),
      },
    );
}

/** Every administrator route's guard, before its input is checked: the caller as the admin log's actor. */
function adminActor(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return async ({ headers }: { headers: Record<string, string | undefined> }) => {
    const user = await guards.requireAdmin(headers);
    return { actor: { id: user.id, username: user.username, source: "web" } satisfies Actor };
  };
}

/** The administrators' queue and actions (every route behind requireAdmin, before its input is checked). */
function adminRoutes(ctx: ModuleContext) {
  const service = moderationApi(ctx);
  return new Elysia({ name: "moderation.admin.routes", prefix: "/moderation", detail: { tags: ["moderation"] } })
    .use(writeLimits(ctx))
    .derive(adminActor(ctx))
    .get("/reports", ({ query }) => service.listGroups(query.status ?? "open", query.page ?? 1, query.size ?? 20), {
      query: QueueQuery,
      response: apiResponses({ 200: QueueSchema }, { ...ADMIN_REQUIRED, 422: true }),
      detail: doc(
        "신고 목록",
        "대상별로 묶은 신고(status=open: 처리 전, resolved: 처리됨), 최근 것부터 20개씩. 묶음마다 신고 수, 사유별 수, 각 신고의 증거, " +
          "신고된 사용자의 현재 제재가 있습니다.",
      ),
    })
    .get("/summary", () => service.openCounts(), {
      response: apiResponses({ 200: SummarySchema }, ADMIN_REQUIRED),
      detail: doc("처리 전 신고 수", "처리 전 신고 수와 그 대상 수(대시보드)."),
    })
    .get("/reports/:id", ({ params }) => service.groupOf(params.id), {
      params: ReportParams,
      response: apiResponses({ 200: GroupSchema }, { ...ADMIN_REQUIRED, 404: REPORT_NOT_FOUND, 422: true }),
      detail: doc("신고 묶음", "이 신고가 속한 묶음(처리 전이면 같은 대상의 처리 전 신고 모두)."),
    })
    .post("/reports/:id/resolve", ({ actor, params, body }) => service.resolve(actor, params.id, body), {
      writeLimit: { name: "moderation.action", account: 300, address: 600 },
      params: ReportParams,
      body: ActionBody,
      response: apiResponses(
        { 200: GroupSchema },
        {
          ...ADMIN_REQUIRED,
          400: "조치에 맞지 않는 신고이거나(지울 내용이 없음, 조치할 계정이 없음, 자기 자신) 기간·사유·경고 문구가 올바르지 않습니다",
          404: REPORT_NOT_FOUND,
          409: "이미 처리된 신고이거나 이미 삭제된 내용입니다",
          422: true,
        },
      ),
      detail: doc(
        "신고 처리",
        "action: dismiss(기각), delete(내용 삭제), mute(채팅·글쓰기 제한: duration 1h·24h·7d), suspend(이용 정지: 1h·24h·7d·30d·permanent), " +
          "exclude(랭킹 제외), warn(경고: 다음 로그인 때 보임, message 선택). 같은 대상의 처리 전 신고가 모두 함께 처리되고, " +
          "관리자 로그에 신고 번호와 함께 남습니다. 제한과 정지는 모든 서버의 접속 중인 소켓에 바로 알려집니다.",
      ),
    })
    .post("/restrictions/:id/lift", ({ actor, params }) => service.lift(actor, params.id), {
      writeLimit: { name: "moderation.action", account: 300, address: 600 },
      params: RestrictionParams,
      response: apiResponses(
        { 200: RestrictionSchema },
        {
          ...ADMIN_REQUIRED,
          404: "제재를 찾을 수 없습니다",
          409: "이미 해제되었거나 끝난 제재입니다",
          422: true,
        },
      ),
      detail: doc("제재 해제", "채팅·글쓰기 제한, 이용 정지, 랭킹 제외를 지금 끝냅니다. 관리자 로그에 남습니다."),
    })
    .get("/users/:userId/restrictions", ({ params }) => service.userRestrictions(params.userId), {
      params: UserParams,
      response: apiResponses(
        { 200: RestrictionListSchema },
        { ...ADMIN_REQUIRED, 404: "사용자를 찾을 수 없습니다", 422: true },
      ),
      detail: doc("사용자의 제재", "지금 유효한 제한·정지·랭킹 제외, 최근 것부터."),
    });
}

/** The profanity list (README "Profanity filter"), administrators only, behind requireAdmin like the queue. */
function wordListRoutes(ctx: ModuleContext) {
  const words = moderationApi(ctx).words;
  const writeLimit = { name: "moderation.profanity", account: 100, address: 300 };
  return new Elysia({
    name: "moderation.profanity.routes",
    prefix: "/moderation/profanity",
    detail: { tags: ["moderation"] },
  })
    .use(writeLimits(ctx))
    .derive(adminActor(ctx))
    .get("/", () => words.list(), {
      response: apiResponses({ 200: WordListSchema }, ADMIN_REQUIRED),
      detail: doc(
        "금칙어 목록",
        "지금 쓰이는 금칙어(기본 목록과 관리자가 더한 단어)와 관리자가 뺀 기본 목록의 단어. 채팅에서는 ***로 가려지고, " +
          "글·댓글·아이디·길드 이름에 있으면 거절됩니다.",
      ),
    })
    .post(
      "/",
      async ({ actor, body, set }) => {
        const answer = await words.add(actor, body.word);
        set.status = 201;
        return answer;
      },
      {
        writeLimit,
        body: WordBody,
        response: apiResponses(
          { 201: WordAnswer },
          {
            ...ADMIN_REQUIRED,
            400: "단어는 띄어쓰기 없이 한글·영문·숫자 1~20자입니다",
            409: "이미 목록에 있는 단어입니다",
            422: true,
          },
        ),
        detail: doc(
          "금칙어 더하기",
          "단어 하나를 목록에 더합니다. 모든 서버에 바로 적용되고 관리자 로그에 남습니다. 뺐던 기본 목록의 단어는 다시 쓰입니다.",
        ),
      },
    )
    .delete("/:word", async ({ actor, params }) => words.remove(actor, params.word), {
      writeLimit,
      params: WordParams,
      response: apiResponses({ 200: WordAnswer }, { ...ADMIN_REQUIRED, 404: "목록에 없는 단어입니다", 422: true }),
      detail: doc(
        "금칙어 빼기",
        "단어 하나를 목록에서 뺍니다(주소에 넣을 때 URL 인코딩). 모든 서버에 바로 적용되고 관리자 로그에 남습니다.",
      ),
    });
}

export const moderationRoutes = (ctx: ModuleContext) =>
  new Elysia({ name: "moderation.routes" }).use(memberRoutes(ctx)).use(adminRoutes(ctx)).use(wordListRoutes(ctx));
