import { Elysia, t } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden, notFound } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { bestOfUser, resultsOfUser } from "./api";
import {
  BestFiguresSchema,
  GameResultRecordSchema,
  ReplayParams,
  ReplaySchema,
  UserResultsParams,
  UserResultsQuery,
} from "./model";
import { type ReplayView, replayOf } from "./replays";
import type { UserResult } from "./store";

export const OTHERS_RECORDS_FORBIDDEN = "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다.";
export const REPLAY_NOT_FOUND = "리플레이를 찾을 수 없습니다.";

/** Both reads answer the same refusals: no login (401), another member's figures (403), a bad id (422). */
const READ_REFUSALS = { ...loginRequired(OTHERS_RECORDS_FORBIDDEN), 422: true } as const;

const presentRecord = (r: UserResult) => ({
  id: r.id,
  room_name: r.sourceName,
  wpm: r.wpm,
  accuracy: r.accuracy,
  completion_time: r.completionTime,
  position: r.position,
  created_at: new Date(r.createdAt).toISOString(),
  mode: r.mode,
  medal: r.medal,
  replay_key: r.replayKey,
});

/**
 * The module's routes (mounted with `createGamesModule({ serveRoutes: true })`): the records and the replays.
 */
export function gamesRoutes(ctx: ModuleContext) {
  return new Elysia({ name: "games.routes" }).use(recordsRoutes(ctx)).use(replaysRoutes(ctx));
}

/**
 * `GET /api/replays/{key}`: anyone with the key may watch (no token). A key that is malformed, unknown or whose
 * replay was deleted by the retention answers the same 404: nothing tells a guessed key from an expired one. The
 * replay of an implausible result answers that 404 too, to everyone but an administrator (the evidence of a
 * cheating report): a rejected run is nobody's to show, the player's own included.
 */
function replaysRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  const mayWatch = async (replay: ReplayView, headers: Record<string, string | undefined>) =>
    !replay.implausible || (await guards.optionalUser(headers))?.isAdmin === true;
  return new Elysia({ name: "games.replays.routes", prefix: "/replays", detail: { tags: ["games"] } }).get(
    "/:key",
    async ({ params, headers }) => {
      const replay = await replayOf(ctx, params.key);
      if (!replay || !(await mayWatch(replay, headers))) throw notFound(REPLAY_NOT_FOUND, "replay_not_found");
      return {
        key: replay.key,
        mode: replay.mode,
        room_name: replay.roomName,
        sentence: replay.sentence,
        player: replay.player,
        result: {
          wpm: replay.result.wpm,
          accuracy: replay.result.accuracy,
          position: replay.result.position,
          completion_time: replay.result.completionTime,
          created_at: new Date(replay.result.createdAt).toISOString(),
        },
        steps: replay.steps,
      };
    },
    {
      params: ReplayParams,
      response: apiResponses({ 200: ReplaySchema }, { 404: REPLAY_NOT_FOUND }),
      detail: {
        summary: "리플레이",
        description:
          "게임 결과 하나의 리플레이: 입력 상자가 바뀔 때마다 서버가 받은 시각(라운드 시작부터 ms)과 그때의 " +
          "글자(steps), 친 문장, 선수(회원이면 레벨도), 결과. 키를 아는 사람은 누구나 볼 수 있습니다(로그인 " +
          "불필요). 리플레이는 90일 보관되고, 회원의 모드별 최고 기록은 계속 보관됩니다. 없는 키, 형식이 틀린 " +
          "키, 보관 기간이 지나 지워진 리플레이는 404입니다. 비정상으로 거부된 결과의 리플레이는 관리자만 볼 수 " +
          "있고(신고 증거), 다른 사람에게는(본인 포함) 없는 키와 같은 404입니다.",
      },
    },
  );
}

/**
 * `GET /api/games/results/user/{userId}` and `GET /api/games/best/user/{userId}`: a member's own records and best
 * figures, any member's for administrators.
 */
function recordsRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  /** The caller, when they may read this member's records: themself or an administrator. */
  const readerOf = async (headers: Record<string, string | undefined>, userId: number) => {
    const user = await guards.requireUser(headers);
    if (user.id !== userId && !user.isAdmin) throw forbidden(OTHERS_RECORDS_FORBIDDEN, "not_own_records");
    return user;
  };
  return new Elysia({ name: "games.records.routes", prefix: "/games", detail: { tags: ["games"] } })
    .get(
      "/best/user/:userId",
      async ({ params, headers }) => {
        await readerOf(headers, params.userId);
        const best = await bestOfUser(ctx, params.userId);
        return { user_id: params.userId, best_wpm: best.bestWpm, best_accuracy: best.bestAccuracy };
      },
      {
        params: UserResultsParams,
        response: apiResponses({ 200: BestFiguresSchema }, READ_REFUSALS),
        detail: {
          summary: "사용자 최고 기록",
          description:
            "모든 타자 게임 모드(타자 방, 길드 게임)에서 인정된 결과 전체 중 최고 속도(타/분)와 최고 정확도(%)를 " +
            "돌려줍니다 (결과가 없으면 0). 1:1 대결과 비정상 결과는 들어가지 않습니다. 본인의 기록만 볼 수 있고, " +
            "관리자는 모든 사용자의 기록을 볼 수 있습니다.",
          security: [{ bearerAuth: [] }],
        },
      },
    )
    .get(
      "/results/user/:userId",
      async ({ params, query, headers }) => {
        await readerOf(headers, params.userId);
        return (await resultsOfUser(ctx, params.userId, query.limit)).map(presentRecord);
      },
      {
        params: UserResultsParams,
        query: UserResultsQuery,
        response: apiResponses({ 200: t.Array(GameResultRecordSchema) }, READ_REFUSALS),
        detail: {
          summary: "사용자 게임 기록",
          description:
            "모든 게임 모드(타자 방, 길드 게임 등)의 결과를 최신순으로 돌려줍니다 (limit 1~200, 기본 50). " +
            "본인의 기록만 볼 수 있고, 관리자는 모든 사용자의 기록을 볼 수 있습니다. room_name은 방이나 길드의 " +
            "당시 이름, mode는 게임 모드, medal은 받은 메달(gold·silver·bronze, 없으면 null), replay_key는 " +
            "리플레이의 키(GET /api/replays/{key}, 없으면 null)입니다.",
          security: [{ bearerAuth: [] }],
        },
      },
    );
}
