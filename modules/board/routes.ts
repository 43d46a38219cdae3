import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { apiResponses, loginRequired } from "../kernel/http";
import { assertCleanText, assertMaySpeak, TEXT_REFUSED, textsOf } from "../kernel/speech";
import { viewerKey } from "../kernel/viewers";
import { writeLimits } from "../kernel/write-limits";
import { boardApi } from "./api";
import {
  CommentBody,
  CommentEditBody,
  CommentListSchema,
  CommentParams,
  CommentSchema,
  DetailResponse,
  ListQuery,
  PostBody,
  PostListSchema,
  PostParams,
  PostSchema,
  ViewSchema,
} from "./model";
import { BOARD_PAGE_SIZE } from "./rules";
import type { ListInput } from "./service";

const POST_NOT_FOUND = { 404: "게시글을 찾을 수 없습니다", 422: true } as const;
const COMMENT_NOT_FOUND = { 404: "댓글(또는 그 게시글)을 찾을 수 없습니다", 422: true } as const;
const bearer = [{ bearerAuth: [] }];

type Query = {
  page?: number;
  size?: number;
  sort_by?: ListInput["sortBy"];
  order?: ListInput["order"];
  q?: string;
  author?: string;
};
const listInput = (query: Query): ListInput => ({
  page: query.page ?? 1,
  size: query.size ?? BOARD_PAGE_SIZE,
  sortBy: query.sort_by ?? "created_at",
  order: query.order ?? "desc",
  q: query.q,
  author: query.author,
});

const listDetail = {
  summary: "게시글 목록",
  description:
    "삭제되지 않은 게시글을 page(1부터), size(기본 10, 최대 50), sort_by(created_at·view_count·comment_count·" +
    "title·id), order(asc·desc)로 나눠 돌려줍니다. q는 제목·내용, author는 작성자 이름에 포함된 글자로 찾습니다. " +
    "범위를 넘는 page는 빈 items를 돌려줍니다.",
};

export function boardRoutes(ctx: ModuleContext) {
  const { service } = boardApi(ctx);
  const { guards } = accountsApi(ctx);
  /** The author of a post or comment: a muted member, and a text holding a listed word, are refused (kernel speech.ts). */
  const writer = async (headers: Record<string, string | undefined>, body: object) => {
    const user = await guards.requireUser(headers);
    assertMaySpeak(ctx, user.id, "post");
    await assertCleanText(ctx, "post", textsOf(body));
    return user;
  };

  const list = ({ query }: { query: Query }) => service.list(listInput(query));
  const listOptions = {
    query: ListQuery,
    response: apiResponses({ 200: PostListSchema }, { 422: true }),
    detail: listDetail,
  };

  return new Elysia({ name: "board.routes", prefix: "/board", detail: { tags: ["board"] } })
    .use(writeLimits(ctx))
    .get("/", list, listOptions)
    .get("", list, { ...listOptions, detail: { ...listDetail, hide: true } })
    .post(
      "/",
      async ({ body, headers, set }) => {
        const user = await writer(headers, body);
        set.status = 201;
        return service.create(user, body);
      },
      {
        // 20,000 Korean characters are ~60 KB of JSON.
        writeLimit: { name: "board.post", account: 10, address: 200, body: 128 * 1024 },
        body: PostBody,
        response: apiResponses({ 201: PostSchema }, { ...loginRequired(), 400: TEXT_REFUSED, 422: true }),
        detail: {
          summary: "게시글 작성",
          description: "로그인이 필요합니다. 제목(공백 제외 필수, 255자 이내)과 내용(필수, 20,000자 이내).",
          security: bearer,
        },
      },
    )
    .get("/:postId", ({ params }) => service.get(params.postId), {
      params: PostParams,
      response: apiResponses({ 200: PostSchema }, POST_NOT_FOUND),
      detail: {
        summary: "게시글 보기",
        description: "삭제되지 않은 게시글 하나를 내용과 함께 돌려줍니다. 조회수는 올리지 않습니다.",
      },
    })
    .post(
      "/:postId/view",
      async ({ params, request, server, headers }) =>
        service.view(
          params.postId,
          viewerKey((await guards.optionalUser(headers))?.id, request, server, ctx.config.trustProxy),
        ),
      {
        // Every opened post sends one (a classroom of 40 reading together shares an address).
        writeLimit: { name: "board.view", account: 60, address: 300, windowMs: 60_000 },
        params: PostParams,
        response: apiResponses({ 200: ViewSchema }, POST_NOT_FOUND),
        detail: {
          summary: "조회수 올리기",
          description: "같은 사람(로그인 사용자, 아니면 IP+브라우저)의 같은 글 조회는 10분에 한 번만 셉니다.",
        },
      },
    )
    .put(
      "/:postId",
      async ({ params, body, headers }) => service.update(await writer(headers, body), params.postId, body),
      {
        writeLimit: { name: "board.post_edit", account: 30, address: 300, body: 128 * 1024 },
        params: PostParams,
        body: PostBody,
        response: apiResponses(
          { 200: PostSchema },
          { ...loginRequired("본인이 작성한 게시글이 아닙니다"), 400: TEXT_REFUSED, ...POST_NOT_FOUND },
        ),
        detail: { summary: "게시글 수정", description: "작성자만 수정할 수 있습니다.", security: bearer },
      },
    )
    .delete(
      "/:postId",
      async ({ params, headers }) => service.remove(await guards.requireUser(headers), params.postId),
      {
        // Administrators clearing spam delete many in a row.
        writeLimit: { name: "board.post_delete", account: 60, address: 300 },
        params: PostParams,
        response: apiResponses(
          { 200: DetailResponse },
          { ...loginRequired("본인이 작성한 게시글이 아니고 관리자도 아닙니다"), ...POST_NOT_FOUND },
        ),
        detail: {
          summary: "게시글 삭제",
          description: "작성자나 관리자가 삭제합니다. 기록은 남고(소프트 삭제) 목록과 보기에서 사라집니다.",
          security: bearer,
        },
      },
    )
    .get("/:postId/comments", ({ params }) => service.comments(params.postId), {
      params: PostParams,
      response: apiResponses({ 200: CommentListSchema }, POST_NOT_FOUND),
      detail: {
        summary: "댓글 목록",
        description:
          "최상위 댓글과 그 답글(replies, 한 단계). 답글이 남은 삭제 댓글은 '삭제된 댓글입니다.'로 보입니다.",
      },
    })
    .post(
      "/:postId/comments",
      async ({ params, body, headers, set }) => {
        const user = await writer(headers, body);
        set.status = 201;
        return service.addComment(user, params.postId, body);
      },
      {
        writeLimit: { name: "board.comment", account: 20, address: 300 },
        params: PostParams,
        body: CommentBody,
        response: apiResponses(
          { 201: CommentSchema },
          {
            ...loginRequired(),
            400: `답글을 달 수 없는 댓글(없는 댓글, 답글, 삭제된 댓글)이거나 ${TEXT_REFUSED}`,
            ...POST_NOT_FOUND,
          },
        ),
        detail: {
          summary: "댓글·답글 작성",
          description: "parent_id가 있으면 그 최상위 댓글의 답글입니다. 답글에 답글은 달 수 없습니다(400).",
          security: bearer,
        },
      },
    )
    .put(
      "/comments/:commentId",
      async ({ params, body, headers }) => service.editComment(await writer(headers, body), params.commentId, body),
      {
        writeLimit: { name: "board.comment_edit", account: 30, address: 300 },
        params: CommentParams,
        body: CommentEditBody,
        response: apiResponses(
          { 200: CommentSchema },
          { ...loginRequired("본인이 작성한 댓글이 아닙니다"), 400: TEXT_REFUSED, ...COMMENT_NOT_FOUND },
        ),
        detail: { summary: "댓글 수정", description: "작성자만 수정할 수 있습니다.", security: bearer },
      },
    )
    .delete(
      "/comments/:commentId",
      async ({ params, headers }) => service.removeComment(await guards.requireUser(headers), params.commentId),
      {
        writeLimit: { name: "board.comment_delete", account: 60, address: 300 },
        params: CommentParams,
        response: apiResponses(
          { 200: DetailResponse },
          { ...loginRequired("본인이 작성한 댓글이 아니고 관리자도 아닙니다"), ...COMMENT_NOT_FOUND },
        ),
        detail: { summary: "댓글 삭제", description: "작성자나 관리자가 삭제합니다(소프트 삭제).", security: bearer },
      },
    );
}
