import { t } from "elysia";
import type { ModuleContext } from "../../kernel/define-module";
import { apiResponses } from "../../kernel/http";
import { TEXT_REFUSED } from "../../kernel/speech";
import { guildsApi } from "../api";
import {
  BoardListQuery,
  BoardPostBody,
  BoardPostParams,
  BoardPostSchema,
  CommentBody,
  CommentParams,
  CommentSchema,
  DetailResponse,
  GuildParams,
} from "../model";
import { actorOf, bearer, guildRoutes, inGuild, MEMBERS_ONLY, page, writerOf } from "../routes-kit";
import { BOARD_PAGE_SIZE, GUILD_MSG } from "../rules";

/** An edit or a delete by someone else than the author or the staff: the member check, then the author check. */
const notAuthor = (refusal: string) => [...MEMBERS_ONLY, refusal];

/** The guild board, members only: posts and comments (authors and staff edit and delete). */
export function guildBoardRoutes(ctx: ModuleContext) {
  const service = guildsApi(ctx).board;
  const actor = actorOf(ctx);
  const writer = writerOf(ctx);

  return guildRoutes(ctx, "board")
    .get(
      "/:id/board",
      async ({ params, query, headers }) =>
        service.boardList(await actor(headers), params.id, page(query, BOARD_PAGE_SIZE)),
      {
        params: GuildParams,
        query: BoardListQuery,
        response: apiResponses({ 200: t.Array(BoardPostSchema) }, inGuild(MEMBERS_ONLY)),
        detail: { summary: "길드 게시판 목록", description: "길드 회원만. 최신순(기본 50개).", security: bearer },
      },
    )
    .post(
      "/:id/board",
      async ({ params, body, headers, set }) => {
        const post = await service.boardCreate(await writer(headers, body), params.id, body);
        set.status = 201;
        return post;
      },
      {
        writeLimit: { name: "guilds.board_post", account: 10, address: 200 },
        params: GuildParams,
        body: BoardPostBody,
        response: apiResponses({ 201: BoardPostSchema }, { ...inGuild(MEMBERS_ONLY), 400: TEXT_REFUSED }),
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
        response: apiResponses({ 200: BoardPostSchema }, inGuild(MEMBERS_ONLY, "길드 또는 게시글을 찾을 수 없습니다")),
        detail: { summary: "길드 게시글 보기", description: "길드 회원만.", security: bearer },
      },
    )
    .put(
      "/:id/board/:postId",
      async ({ params, body, headers }) =>
        service.boardUpdate(await writer(headers, body), params.id, params.postId, body),
      {
        writeLimit: { name: "guilds.board_edit", account: 30, address: 300 },
        params: BoardPostParams,
        body: BoardPostBody,
        response: apiResponses(
          { 200: BoardPostSchema },
          {
            ...inGuild(notAuthor(GUILD_MSG.postEditForbidden), "길드 또는 게시글을 찾을 수 없습니다"),
            400: TEXT_REFUSED,
          },
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
          inGuild(notAuthor(GUILD_MSG.postDeleteForbidden), "길드 또는 게시글을 찾을 수 없습니다"),
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
          inGuild(MEMBERS_ONLY, "길드 또는 게시글을 찾을 수 없습니다"),
        ),
        detail: { summary: "길드 게시글 댓글", description: "길드 회원만. 오래된 순.", security: bearer },
      },
    )
    .post(
      "/:id/board/:postId/comments",
      async ({ params, body, headers, set }) => {
        const comment = await service.addComment(await writer(headers, body), params.id, params.postId, body);
        set.status = 201;
        return comment;
      },
      {
        writeLimit: { name: "guilds.comment", account: 20, address: 300 },
        params: BoardPostParams,
        body: CommentBody,
        response: apiResponses(
          { 201: CommentSchema },
          { ...inGuild(MEMBERS_ONLY, "길드 또는 게시글을 찾을 수 없습니다"), 400: TEXT_REFUSED },
        ),
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
          inGuild(notAuthor(GUILD_MSG.commentDeleteForbidden), "길드, 게시글 또는 댓글을 찾을 수 없습니다"),
        ),
        detail: {
          summary: "길드 댓글 삭제",
          description: "작성자나 길드 관리자·부관리자만(소프트 삭제).",
          security: bearer,
        },
      },
    );
}
