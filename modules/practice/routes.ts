import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { unprocessable } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { writeLimits } from "../kernel/write-limits";
import {
  clearGoal,
  goalOf,
  layoutParam,
  layoutPreference,
  mergeGuestResults,
  progressOf,
  recordResult,
  setGoal,
  setLayoutPreference,
  statisticsOf,
  summaryOf,
} from "./api";
import { longText, longTextCatalogue, pickSentences, pickWords, TEXT_NOT_FOUND, WORDS } from "./content";
import { type Layout, layoutOf } from "./layouts";
import {
  CatalogueSchema,
  GoalBody,
  GoalSchema,
  LayoutBody,
  LayoutSchema,
  LongTextParams,
  LongTextSchema,
  MergeBody,
  MergedSchema,
  PracticeSummarySchema,
  ProgressQuery,
  ProgressSchema,
  RecordedSchema,
  ResultBody,
  SentencesQuery,
  SentencesSchema,
  StatisticsSchema,
  StatsQuery,
  WordsQuery,
  WordsSchema,
} from "./model";

const bearer = [{ bearerAuth: [] }];
/** A target is set now and then: a form, not a stream. */
const GOAL_WRITES = { name: "practice.goal", account: 30, address: 120 };

/** `focus=ㅃ,ㅖ,dokkaebi`: the units 맞춤 연습 concentrates on, of `layout`; an unknown one is refused. */
function focusOf(text: string | undefined, layout: Layout): string[] {
  const board = layoutOf(layout);
  const known = new Set<string>([...board.units, ...board.transitions]);
  const units = (text ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u.length > 0);
  const unknown = units.find((u) => !known.has(u));
  if (unknown !== undefined) throw unprocessable(`알 수 없는 자모나 전환입니다: ${unknown}`);
  return [...new Set(units)];
}

/** `/api/practice`: results, statistics and progress (members), and what there is to practise (everyone). */
export function practiceRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return new Elysia({ name: "practice.routes", prefix: "/practice", detail: { tags: ["practice"] } })
    .use(writeLimits(ctx))
    .post(
      "/results",
      async ({ body, headers }) => {
        const user = await guards.requireUser(headers);
        return recordResult(ctx, user.id, body);
      },
      {
        // A 자리 연습 drill takes 20 s: three a minute for ten minutes is 30; offline results arrive in a burst.
        writeLimit: { name: "practice.result", account: 120, address: 600, body: 32 * 1024 },
        body: ResultBody,
        response: apiResponses({ 200: RecordedSchema }, { ...loginRequired(), 422: true }),
        detail: {
          summary: "연습 기록 저장",
          description:
            "끝낸 연습 하나를 타건 요약(자모와 전환마다 타수, 오타, 시간)과 함께 저장합니다. client_id가 같은 기록은 한 번만 " +
            "저장됩니다(오프라인 기록을 다시 보내도 안전): 두 번째부터는 stored: false와 처음 저장된 내용을 돌려줍니다. " +
            "경험치는 서울 날짜로 하루 첫 30분의 연습에만, 1분마다 방 게임 참가 보상(10 + 속도 × 정확도 / 1000)만큼 " +
            "줍니다. 코인, 포인트, 메달은 없고 랭킹에 들지 않습니다. 1,500타/분보다 빠른 기록은 422로 거절합니다.",
          security: bearer,
        },
      },
    )
    .post(
      "/merge",
      async ({ body, headers }) => {
        const user = await guards.requireUser(headers);
        return mergeGuestResults(ctx, user.id, body.results);
      },
      {
        writeLimit: { name: "practice.merge", account: 10, address: 100, body: 512 * 1024 },
        body: MergeBody,
        response: apiResponses({ 200: MergedSchema }, { ...loginRequired(), 422: true }),
        detail: {
          summary: "손님 연습 기록 옮기기",
          description:
            "로그인(또는 가입)한 회원에게, 손님일 때 브라우저에 남긴 연습 기록(최대 200개)을 옮깁니다. 기록마다 client_id로 " +
            "한 번만 저장되고, 경험치는 주지 않습니다. 규칙에 맞지 않는 기록은 버리고 그 수를 rejected로 알려줍니다.",
          security: bearer,
        },
      },
    )
    .get(
      "/stats",
      async ({ headers, query }) => {
        const userId = (await guards.requireUser(headers)).id;
        return statisticsOf(ctx, userId, layoutParam(query.layout, await layoutPreference(ctx, userId)));
      },
      {
        query: StatsQuery,
        response: apiResponses({ 200: StatisticsSchema }, { ...loginRequired(), 400: true, 422: true }),
        detail: {
          summary: "내 자모 통계",
          description:
            "최근 30일(서울 날짜)의 한 자판(layout, 없으면 회원이 고른 자판)의 자모와 space마다 타수, 오타율, 속도(타/분), " +
            "어려운 전환(두벌식의 도깨비불: 받침 뒤 모음, 겹받침, Shift 자모)의 같은 수치, 가장 약한 자모, 오늘 연습한 " +
            "시간과 경험치, 연속 연습 일수를 돌려줍니다. 자판마다 통계가 따로 쌓입니다.",
          security: bearer,
        },
      },
    )
    .get(
      "/layout",
      async ({ headers }) => ({ layout: await layoutPreference(ctx, (await guards.requireUser(headers)).id) }),
      {
        response: apiResponses({ 200: LayoutSchema }, loginRequired()),
        detail: {
          summary: "내 연습 자판",
          description: "회원이 고른 연습 자판(dubeolsik, sebeolsik-390, sebeolsik-final). 고르지 않았으면 dubeolsik.",
          security: bearer,
        },
      },
    )
    .put(
      "/layout",
      async ({ body, headers }) => {
        const userId = (await guards.requireUser(headers)).id;
        return { layout: await setLayoutPreference(ctx, userId, layoutParam(body.layout, "dubeolsik")) };
      },
      {
        writeLimit: GOAL_WRITES,
        body: LayoutBody,
        response: apiResponses({ 200: LayoutSchema }, { ...loginRequired(), 400: true, 422: true }),
        detail: {
          summary: "연습 자판 고르기",
          description:
            "연습할 자판을 고릅니다: dubeolsik 두벌식, sebeolsik-390 세벌식 390, sebeolsik-final 세벌식 최종. 다음에 " +
            "연습 화면을 열 때도 이 자판으로 시작합니다. 모르는 값은 400입니다.",
          security: bearer,
        },
      },
    )
    .get("/summary", async ({ headers }) => summaryOf(ctx, (await guards.requireUser(headers)).id), {
      response: apiResponses({ 200: PracticeSummarySchema }, loginRequired()),
      detail: {
        summary: "내 연습 요약 (프로필)",
        description:
          "프로필에 보이는 연습 기록: 모든 연습 시간(분), 연습한 날 수, 연속 연습 일수, 종류마다 최고 속도, 최근 30일의 " +
          "가장 약한 자모(최대 3개). 연습은 게임이 아니어서 게임 수, 평균 속도, 랭킹에는 들지 않습니다.",
        security: bearer,
      },
    })
    .get(
      "/progress",
      async ({ headers, query }) => {
        const userId = (await guards.requireUser(headers)).id;
        const layout = layoutParam(query.layout, await layoutPreference(ctx, userId));
        return progressOf(ctx, userId, { days: query.days ?? 30, unit: focusOf(query.unit, layout)[0], layout });
      },
      {
        query: ProgressQuery,
        response: apiResponses({ 200: ProgressSchema }, { ...loginRequired(), 400: true, 422: true }),
        detail: {
          summary: "연습 진행",
          description:
            "최근 days일(기본 30, 최대 365) 동안 날짜와 종류마다 연습 수, 평균 속도와 정확도, 연습 시간을 돌려줍니다. " +
            "unit(자모나 전환)을 주면 그 자리의 날짜별 타수, 오타율, 속도도 돌려줍니다.",
          security: bearer,
        },
      },
    )
    .get("/goal", async ({ headers }) => ({ goal: await goalOf(ctx, (await guards.requireUser(headers)).id) }), {
      response: apiResponses({ 200: GoalSchema }, loginRequired()),
      detail: {
        summary: "내 연습 목표",
        description: "회원이 정한 목표 속도(타/분)와 정확도(%)를 돌려줍니다. 정하지 않았으면 goal은 null입니다.",
        security: bearer,
      },
    })
    .put(
      "/goal",
      async ({ body, headers }) => ({ goal: await setGoal(ctx, (await guards.requireUser(headers)).id, body) }),
      {
        writeLimit: GOAL_WRITES,
        body: GoalBody,
        response: apiResponses({ 200: GoalSchema }, { ...loginRequired(), 422: true }),
        detail: {
          summary: "연습 목표 정하기",
          description:
            "목표 속도(10–1,500타/분, 정수)와 정확도(50–100%)를 정합니다. 연습 진행 차트가 이 높이에 목표선을 긋습니다. " +
            "이미 있으면 바꿉니다.",
          security: bearer,
        },
      },
    )
    .delete(
      "/goal",
      async ({ headers }) => {
        await clearGoal(ctx, (await guards.requireUser(headers)).id);
        return { goal: null };
      },
      {
        writeLimit: GOAL_WRITES,
        response: apiResponses({ 200: GoalSchema }, loginRequired()),
        detail: { summary: "연습 목표 지우기", description: "회원의 연습 목표를 지웁니다.", security: bearer },
      },
    )
    .get("/texts", () => ({ long: longTextCatalogue() }), {
      response: apiResponses({ 200: CatalogueSchema }, {}),
      detail: {
        summary: "긴 글 목록",
        description: "긴 글(퍼블릭 도메인 한국 문학) 목록: 제목, 지은이, 해, 출처와 라이선스, 문단 수와 글자 수.",
      },
    })
    .get("/texts/:id", ({ params }) => longText(params.id), {
      params: LongTextParams,
      response: apiResponses({ 200: LongTextSchema }, { 404: TEXT_NOT_FOUND, 422: true }),
      detail: { summary: "긴 글", description: "긴 글 하나를 문단과 함께 돌려줍니다 (시는 연마다 한 문단)." },
    })
    .get(
      "/words",
      ({ query }) => {
        const layout = layoutParam(query.layout, "dubeolsik");
        const focus = focusOf(query.focus, layout);
        return { words: pickWords(ctx.random, query.count ?? 30, focus, layout), focus };
      },
      {
        query: WordsQuery,
        response: apiResponses({ 200: WordsSchema }, { 400: true, 422: true }),
        detail: {
          summary: "낱말 연습 낱말",
          description:
            "낱말 목록(5,000개 이상)에서 count개(기본 30, 최대 100)를 무작위로 고릅니다. focus(쉼표로 나눈 자모나 dokkaebi, " +
            "double_final, shift)를 주면 그것이 많이 든 낱말부터 골라 맞춤 연습을 만듭니다.",
        },
      },
    )
    .get("/word-list", () => ({ words: [...WORDS], focus: [] }), {
      response: apiResponses({ 200: WordsSchema }, {}),
      detail: {
        summary: "낱말 목록 전체",
        description:
          "낱말 연습의 낱말 목록 전체(5,000개 이상). 웹 앱은 타자 연습을 연결된 채로 열 때 이것을 서비스 워커에 " +
          "맡겨, 연결이 없을 때도 맞춤 연습이 모든 낱말에서 약한 자모가 든 낱말을 고르게 합니다.",
      },
    })
    .get("/sentences", async ({ query }) => ({ sentences: await pickSentences(ctx, query.count ?? 10) }), {
      query: SentencesQuery,
      response: apiResponses({ 200: SentencesSchema }, { 422: true }),
      detail: {
        summary: "짧은 글",
        description: "방 게임의 한국어 문장에서 count개(기본 10, 최대 30)를 무작위로 고릅니다.",
      },
    });
}
