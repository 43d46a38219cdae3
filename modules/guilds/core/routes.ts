import type { ModuleContext } from "../../kernel/define-module";
import { apiResponses, loginRequired } from "../../kernel/http";
import { assertCleanText, TEXT_REFUSED } from "../../kernel/speech";
import { guildsApi } from "../api";
import {
  CreateGuildBody,
  DetailResponse,
  GuildListQuery,
  GuildListSchema,
  GuildParams,
  GuildSchema,
  MyGuildSchema,
  ProblemsBody,
  ProblemsFileBody,
  ProblemsSchema,
  SettingsBody,
} from "../model";
import { ADMINS_ONLY, actorOf, bearer, GUILD_NOT_FOUND, guildRoutes, inGuild, MEMBERS_ONLY, page } from "../routes-kit";
import { LIST_PAGE_SIZE } from "../rules";

/** The guild itself: the list, creation, my guild, one guild, disbanding, the game settings and the problems. */
export function guildCoreRoutes(ctx: ModuleContext) {
  const { core } = guildsApi(ctx);
  const actor = actorOf(ctx);

  const listDetail = {
    summary: "길드 목록",
    description:
      "해산되지 않은 길드를 최신순으로 page(1부터), size(기본 20, 최대 50)로 나눠 돌려줍니다. q는 이름 검색.",
  };
  const list = ({ query }: { query: typeof GuildListQuery.static }) =>
    core.list({ ...page(query, LIST_PAGE_SIZE), q: query.q });
  const create = async ({
    body,
    headers,
    set,
  }: {
    body: typeof CreateGuildBody.static;
    headers: Record<string, string | undefined>;
    set: { status?: number | string };
  }) => {
    const caller = await actor(headers);
    await assertCleanText(ctx, "guild_name", [body.name]);
    await assertCleanText(ctx, "post", [body.description]);
    const guild = await core.create(caller, body);
    set.status = 201;
    return guild;
  };
  const createOptions = {
    // A member makes a guild now and then (and maybe again after disbanding one); a classroom makes its own each.
    writeLimit: { name: "guilds.create", account: 5, address: 100, windowMs: 60 * 60_000 },
    body: CreateGuildBody,
    response: apiResponses(
      { 201: GuildSchema },
      {
        ...loginRequired(),
        400: TEXT_REFUSED,
        409: "이미 길드에 가입했거나 같은 이름의 길드가 있습니다",
        422: true,
      },
    ),
    detail: {
      summary: "길드 만들기",
      description:
        "로그인이 필요합니다. 만든 사람이 관리자가 됩니다. 이름 2~20자(대소문자 구분 없이 중복 불가), 소개 200자 이내. 이미 길드에 가입했으면 409.",
      security: bearer,
    },
  };

  return guildRoutes(ctx, "core")
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
    .get("/my", async ({ headers }) => core.my(await actor(headers)), {
      response: apiResponses({ 200: MyGuildSchema }, loginRequired()),
      detail: {
        summary: "내 길드",
        description: "내 길드, 역할, 회원, 최근 활동(최근 20개), 내 이메일로 온 초대. 길드가 없으면 guild는 null.",
        security: bearer,
      },
    })
    .get("/:id", ({ params }) => core.get(params.id), {
      params: GuildParams,
      response: apiResponses({ 200: GuildSchema }, { 404: GUILD_NOT_FOUND, 422: true }),
      detail: { summary: "길드 정보", description: "해산되지 않은 길드 하나와 현재 회원 수, 게임 설정." },
    })
    .delete("/:id", async ({ params, headers }) => core.disband(await actor(headers), params.id), {
      writeLimit: { name: "guilds.disband", account: 5, address: 100, windowMs: 60 * 60_000 },
      params: GuildParams,
      response: apiResponses({ 200: DetailResponse }, inGuild(ADMINS_ONLY)),
      detail: {
        summary: "길드 해산",
        description: "길드 관리자만. 기록은 남고(소프트 삭제) 모든 회원이 탈퇴 처리됩니다.",
        security: bearer,
      },
    })
    .put(
      "/:id/settings",
      async ({ params, body, headers }) => core.updateSettings(await actor(headers), params.id, body),
      {
        writeLimit: { name: "guilds.settings", account: 30, address: 300 },
        params: GuildParams,
        body: SettingsBody,
        response: apiResponses({ 200: GuildSchema }, inGuild(ADMINS_ONLY)),
        detail: {
          summary: "길드 설정",
          description:
            "길드 관리자만. max_members 5~100, countdown_seconds 1~10, end_countdown_seconds 30~300. 범위를 벗어나면 422이고 아무것도 저장하지 않습니다.",
          security: bearer,
        },
      },
    )
    .get("/:id/problems", async ({ params, headers }) => core.problems(await actor(headers), params.id), {
      params: GuildParams,
      response: apiResponses({ 200: ProblemsSchema }, inGuild(MEMBERS_ONLY)),
      detail: { summary: "길드 문제 목록", description: "길드 회원만 봅니다.", security: bearer },
    })
    .put(
      "/:id/problems",
      async ({ params, body, headers }) => core.setProblems(await actor(headers), params.id, body.problems),
      {
        // 200 problems of 500 Korean characters are ~300 KB of JSON.
        writeLimit: { name: "guilds.problems", account: 30, address: 300, body: 512 * 1024 },
        params: GuildParams,
        body: ProblemsBody,
        response: apiResponses({ 200: ProblemsSchema }, inGuild(ADMINS_ONLY)),
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
      async ({ params, body, headers }) => core.setProblemsFromFile(await actor(headers), params.id, body.file),
      {
        writeLimit: { name: "guilds.problems", account: 30, address: 300, body: 512 * 1024 },
        params: GuildParams,
        body: ProblemsFileBody,
        response: apiResponses({ 200: ProblemsSchema }, inGuild(ADMINS_ONLY)),
        detail: {
          summary: "길드 문제 파일 올리기",
          description: "길드 관리자만. multipart의 file: 문자열 배열을 담은 JSON 파일. 목록을 통째로 바꿉니다.",
          security: bearer,
        },
      },
    );
}
