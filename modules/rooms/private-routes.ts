import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { notFound } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { writeLimits } from "../kernel/write-limits";
import {
  CreatePrivateBody,
  DetailSchema,
  HandOverBody,
  InviteCodeParams,
  OwnTextsSchema,
  PrivateRoomInfoSchema,
  PrivateRoomListSchema,
  PrivateRoomParams,
  PrivateSettingsBody,
  RemovePlayerBody,
} from "./model";
import { type Caller, type PrivateLive, privateRoomsService } from "./private-rooms";
import { INVITE_CODE, PRIVATE_MSG } from "./private-rules";

const bearer = [{ bearerAuth: [] }];
const ROOM_404 = "비공개 방이 없거나 닫혔습니다";
/** An owner's route: the login guard, the owner check (403) and an open room (404). */
const ownerOnly = { ...loginRequired("방장이 아닙니다"), 404: ROOM_404, 422: true } as const;
/** Room ids are whole numbers; any other text is a room that does not exist (404, as for a closed one). */
const roomIdOf = (id: string) => {
  if (!/^[1-9][0-9]{0,9}$/.test(id)) throw notFound(PRIVATE_MSG.notFound, "room_not_found");
  return Number(id);
};

/**
 * Private rooms' HTTP routes (README "Private rooms"): a member creates one (`/api/rooms/private`), anyone with its
 * link reads it (`/api/rooms/invite/{code}`), its owner runs it (`/api/rooms/private/{id}/…`). Each write has its budget per account and address (kernel README "HTTP
 * writes"); 200 own sentences of 300 Korean characters are ~180 KB of JSON.
 */
export function privateRoomRoutes(ctx: ModuleContext, live: () => PrivateLive | undefined) {
  const service = privateRoomsService(ctx, live);
  const { guards } = accountsApi(ctx);
  const caller = async (headers: Record<string, string | undefined>): Promise<Caller> => {
    const user = await guards.requireUser(headers);
    return { id: user.id, username: user.username };
  };
  const manage = { name: "rooms.private_manage", account: 60, address: 300 };
  const create = async ({
    body,
    headers,
    set,
  }: {
    body: typeof CreatePrivateBody.static;
    headers: Record<string, string | undefined>;
    set: { status?: number | string };
  }) => {
    const info = await service.create(await caller(headers), body);
    set.status = 201;
    return info;
  };
  const createOptions = {
    // A member makes a room for a group now and then; a school's classes share an address.
    writeLimit: { name: "rooms.private_create", account: 10, address: 100, windowMs: 60 * 60_000, body: 256 * 1024 },
    body: CreatePrivateBody,
    response: apiResponses(
      { 201: PrivateRoomInfoSchema },
      { ...loginRequired(), 409: "열어 둔 비공개 방이 너무 많습니다", 422: true },
    ),
    detail: {
      summary: "비공개 방 만들기",
      description:
        "로그인한 회원만. 이름 1~30자, 인원 2~20명, 문장은 theme(제품 문장의 주제)와 texts(직접 넣는 문장: 한 줄에 한 문장, 5~300자, 200개까지) 중 하나. auto_start가 참이면 라운드가 저절로 시작하고, 아니면 방장이 시작합니다. 목록에 나오지 않고 초대 링크(/r/{code})로만 들어올 수 있습니다. 한 사람이 5개까지 열어 둘 수 있습니다.",
      security: bearer,
    },
  };

  return new Elysia({ name: "rooms.routes.private", prefix: "/rooms", detail: { tags: ["rooms"] } })
    .use(writeLimits(ctx))
    .post("/private", create, createOptions)
    .post("/private/", create, { ...createOptions, detail: { ...createOptions.detail, hide: true } })
    .get("/private/mine", async ({ headers }) => ({ rooms: await service.mine(await caller(headers)) }), {
      response: apiResponses({ 200: PrivateRoomListSchema }, loginRequired()),
      detail: { summary: "내 비공개 방", description: "내가 방장인 열린 비공개 방들 (오래된 순).", security: bearer },
    })
    .get(
      "/invite/:code",
      ({ params }) => {
        if (!INVITE_CODE.test(params.code)) throw notFound(PRIVATE_MSG.notFound, "room_not_found");
        return service.byCode(params.code);
      },
      {
        params: InviteCodeParams,
        response: apiResponses({ 200: PrivateRoomInfoSchema }, { 404: ROOM_404 }),
        detail: {
          summary: "초대 링크의 비공개 방",
          description:
            "초대 코드로 비공개 방을 찾습니다. 링크가 있으면 누구나(손님도) 볼 수 있습니다. 들어가기는 소켓의 join_room/join_anonymous에 code를 함께 보냅니다(방장이 내보낸 사람은 거절).",
        },
      },
    )
    .get(
      "/private/:id/texts",
      async ({ params, headers }) => ({ texts: await service.ownTexts(await caller(headers), roomIdOf(params.id)) }),
      {
        params: PrivateRoomParams,
        response: apiResponses({ 200: OwnTextsSchema }, ownerOnly),
        detail: {
          summary: "비공개 방 문장",
          description: "방장만. 방장이 직접 넣은 문장들 (주제를 골랐으면 빈 목록).",
          security: bearer,
        },
      },
    )
    .patch(
      "/private/:id",
      async ({ params, body, headers }) => service.update(await caller(headers), roomIdOf(params.id), body),
      {
        writeLimit: { name: "rooms.private_settings", account: 30, address: 300, body: 256 * 1024 },
        params: PrivateRoomParams,
        body: PrivateSettingsBody,
        response: apiResponses({ 200: PrivateRoomInfoSchema }, ownerOnly),
        detail: {
          summary: "비공개 방 설정",
          description:
            "방장만. auto_start(라운드 자동 시작)와 문장(theme 또는 texts 중 하나)을 바꿉니다. 새 문장은 다음 라운드부터 나옵니다.",
          security: bearer,
        },
      },
    )
    .post(
      "/private/:id/start",
      async ({ params, headers }) => {
        await service.start(await caller(headers), roomIdOf(params.id));
        return { detail: "라운드를 시작합니다." };
      },
      {
        // A round every 15 s at the most would be 40 in 10 minutes.
        writeLimit: { name: "rooms.private_round", account: 120, address: 600 },
        params: PrivateRoomParams,
        response: apiResponses(
          { 200: DetailSchema },
          { ...ownerOnly, 409: "라운드가 진행 중이거나 참가자가 없습니다" },
        ),
        detail: {
          summary: "다음 라운드 시작",
          description: "방장만. 라운드 사이에 누르면 카운트다운이 바로 시작됩니다. 진행 중이거나 참가자가 없으면 409.",
          security: bearer,
        },
      },
    )
    .post(
      "/private/:id/code",
      async ({ params, headers }) => service.newCode(await caller(headers), roomIdOf(params.id)),
      {
        writeLimit: manage,
        params: PrivateRoomParams,
        response: apiResponses({ 200: PrivateRoomInfoSchema }, ownerOnly),
        detail: {
          summary: "새 초대 링크",
          description: "방장만. 예전 링크로는 더 들어올 수 없고, 내보낸 사람도 새 링크로는 다시 들어올 수 있습니다.",
          security: bearer,
        },
      },
    )
    .post(
      "/private/:id/remove",
      async ({ params, body, headers }) => {
        await service.remove(await caller(headers), roomIdOf(params.id), body.session_id);
        return { detail: "참가자를 내보냈습니다." };
      },
      {
        writeLimit: manage,
        params: PrivateRoomParams,
        body: RemovePlayerBody,
        response: apiResponses({ 200: DetailSchema }, { ...ownerOnly, 400: PRIVATE_MSG.removeSelf }),
        detail: {
          summary: "참가자 내보내기",
          description:
            "방장만. 그 사람은 바로 방에서 나가고, 방장이 새 초대 링크를 만들기 전에는 지금 링크로 다시 들어올 수 없습니다.",
          security: bearer,
        },
      },
    )
    .post(
      "/private/:id/owner",
      async ({ params, body, headers }) => service.handOver(await caller(headers), roomIdOf(params.id), body.user_id),
      {
        writeLimit: manage,
        params: PrivateRoomParams,
        body: HandOverBody,
        response: apiResponses(
          { 200: PrivateRoomInfoSchema },
          { ...ownerOnly, 409: "지금 방에 있는 다른 회원에게만 넘길 수 있습니다" },
        ),
        detail: {
          summary: "방장 넘기기",
          description: "방장만. 지금 방에 있는(참가 또는 관전) 다른 회원에게 방장을 넘깁니다.",
          security: bearer,
        },
      },
    )
    .delete(
      "/private/:id",
      async ({ params, headers }) => {
        await service.close(await caller(headers), roomIdOf(params.id));
        return { detail: "방을 닫았습니다." };
      },
      {
        writeLimit: manage,
        params: PrivateRoomParams,
        response: apiResponses({ 200: DetailSchema }, ownerOnly),
        detail: {
          summary: "비공개 방 닫기",
          description:
            "방장만. 모두 방에서 나가고(진행 중인 라운드는 그때까지의 결과로 끝나 기록에 남습니다) 링크는 더 열리지 않습니다. 아무도 없이 30분이 지난 방도 저절로 닫힙니다.",
          security: bearer,
        },
      },
    );
}
