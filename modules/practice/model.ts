import { type TLiteral, Type } from "@sinclair/typebox";
import { t } from "elysia";
import { TRANSITIONS } from "./keystroke-model";
import { ALL_KEY_UNITS, LAYOUTS } from "./layouts";
import { CLIENT_ID_PATTERN, GOAL_RANGE, PRACTICE_KINDS, PRACTICE_RULES } from "./rules";

/** One of `values` (literals, not `t.UnionEnum`: Elysia fills an absent UnionEnum query field with its first value). */
const literals = <const T extends readonly string[]>(values: T, options: Record<string, string> = {}) =>
  t.Union(values.map((v) => t.Literal(v)) as { -readonly [K in keyof T]: TLiteral<T[K]> }, options);

const COUNT = { minimum: 0, maximum: 1_000_000 };
const tally = {
  hits: t.Integer({ ...COUNT, description: "그 자리에서 쳐야 했던 타수" }),
  errors: t.Integer({ ...COUNT, description: "그중 틀린 타수" }),
  time_ms: t.Integer({ minimum: 0, maximum: 2_000_000_000, description: "시간을 잰 맞은 타수의 간격 합 (ms)" }),
  timed: t.Integer({ ...COUNT, description: "시간을 잰 맞은 타수 (2초 넘는 간격은 재지 않음)" }),
};

export const SummarySchema = t.Object(
  {
    layout: literals(LAYOUTS),
    jamo: t.Array(
      t.Object({
        jamo: literals(ALL_KEY_UNITS, { description: "자모 (세벌식의 받침은 ᆨ처럼 종성 자모), 또는 space" }),
        ...tally,
      }),
      { maxItems: ALL_KEY_UNITS.length },
    ),
    transitions: t.Array(t.Object({ kind: literals(TRANSITIONS), ...tally }), { maxItems: TRANSITIONS.length }),
    corrections: t.Integer({ ...COUNT, description: "지운 타수 (Backspace)" }),
  },
  { description: "타건 요약: 자모와 어려운 전환(도깨비불, 겹받침, Shift 자모)마다 타수, 오타, 시간" },
);

export const ResultBody = t.Object({
  client_id: t.String({
    pattern: CLIENT_ID_PATTERN,
    description: "클라이언트가 만든 기록 id (8–64자의 영문, 숫자, _ -): 같은 id의 기록은 한 번만 저장됩니다",
  }),
  kind: literals(PRACTICE_KINDS, {
    description: "keys 자리 연습, words 낱말, short 짧은 글, long 긴 글, adaptive 맞춤",
  }),
  text_id: t.String({
    minLength: 1,
    maxLength: 100,
    description: "연습한 글의 id (예: keys:home, long:kim-sowol-azaleas)",
  }),
  layout: literals(LAYOUTS, {
    description: "자판: dubeolsik 두벌식, sebeolsik-390 세벌식 390, sebeolsik-final 세벌식 최종",
  }),
  wpm: t.Integer({ minimum: 0, maximum: PRACTICE_RULES.maxSpeed, description: "타/분" }),
  accuracy: t.Number({ minimum: 0, maximum: 100, description: "정확도 %" }),
  keystrokes: t.Integer({ minimum: 1, maximum: 1_000_000, description: "친 타수 (타수 규칙)" }),
  error_count: t.Integer({ minimum: 0, maximum: 1_000_000 }),
  duration_ms: t.Integer({
    minimum: 1_000,
    maximum: PRACTICE_RULES.maxDurationMs,
    description: "실제로 친 시간 (ms, 멈춘 시간 제외; 1초–1시간)",
  }),
  finished_at: t.Optional(t.String({ format: "date-time", description: "끝낸 시각 (오프라인 기록: 그 기기의 시각)" })),
  summary: SummarySchema,
});

const FiguresSchema = t.Object({
  unit: t.String({ description: "자모, space, 또는 전환 이름" }),
  hits: t.Integer(),
  errors: t.Integer(),
  error_rate: t.Number({ description: "오타율 0–1" }),
  speed: t.Union([t.Integer(), t.Null()], { description: "그 자리의 속도 (타/분), 잰 타수가 없으면 null" }),
});

export const RecordedSchema = t.Object({
  id: t.Integer(),
  client_id: t.String(),
  stored: t.Boolean({ description: "false: 같은 id의 기록이 이미 저장되어 있어 아무것도 더하지 않았습니다" }),
  day: t.String({ description: "서울 날짜 YYYY-MM-DD" }),
  experience: t.Integer({ description: "이 기록이 받은 경험치 (하루 첫 30분까지)" }),
  user: t.Union([t.Object({ level: t.Integer(), experience: t.Integer() }, { additionalProperties: true }), t.Null()], {
    description: "경험치를 받았다면 그 뒤 회원의 수치",
  }),
});

export const StatisticsSchema = t.Object({
  layout: t.String(),
  since: t.String({ description: "통계에 든 첫날 (최근 30일)" }),
  jamo: t.Array(FiguresSchema, { description: "자판의 자모와 space마다" }),
  transitions: t.Array(FiguresSchema, { description: "dokkaebi 도깨비불, double_final 겹받침, shift Shift 자모" }),
  weakest: t.Array(t.String(), { description: "가장 약한 자모 (오타율 + 느린 정도)" }),
  totals: t.Object({
    results: t.Integer(),
    practice_days: t.Integer(),
    streak: t.Integer({ description: "연속 연습 일수" }),
    today_minutes: t.Number(),
    today_paid_minutes: t.Number({ description: "오늘 경험치를 받은 연습 시간 (최대 30분)" }),
    today_experience: t.Integer(),
  }),
});

export const ProgressSchema = t.Object({
  from: t.String(),
  to: t.String(),
  days: t.Array(
    t.Object({
      day: t.String(),
      kind: t.String({ description: "keys, words, short, long, adaptive" }),
      results: t.Integer(),
      wpm: t.Integer(),
      accuracy: t.Number(),
      minutes: t.Number(),
    }),
  ),
  unit: t.Union([
    t.Object({
      unit: t.String(),
      days: t.Array(t.Object({ day: t.String(), ...FiguresSchema.properties })),
    }),
    t.Null(),
  ]),
});

const LAYOUT_FIELD = t.String({
  maxLength: 40,
  description: "자판: dubeolsik, sebeolsik-390, sebeolsik-final (모르는 값은 400)",
});
const layoutQuery = (fallback: string) =>
  t.Optional(t.String({ ...LAYOUT_FIELD, description: `${LAYOUT_FIELD.description}; 없으면 ${fallback}` }));

export const StatsQuery = t.Object({ layout: layoutQuery("회원이 고른 자판") });

export const LayoutBody = t.Object({ layout: LAYOUT_FIELD });
export const LayoutSchema = t.Object({ layout: t.String({ description: "연습 자판" }) });

export const ProgressQuery = t.Object({
  layout: layoutQuery("회원이 고른 자판"),
  days: t.Optional(t.Integer({ minimum: 1, maximum: PRACTICE_RULES.maxProgressDays, default: 30 })),
  unit: t.Optional(t.String({ maxLength: 20, description: "날짜별로 볼 자모나 전환 (dokkaebi, double_final, shift)" })),
});

export const MergeBody = t.Object({
  results: t.Array(ResultBody, { maxItems: PRACTICE_RULES.maxMergedResults }),
});

export const MergedSchema = t.Object({
  stored: t.Integer(),
  duplicates: t.Integer({ description: "이미 저장되어 있던 기록" }),
  rejected: t.Integer({ description: "규칙에 맞지 않아 버린 기록" }),
});

export const WordsQuery = t.Object({
  layout: layoutQuery("dubeolsik (focus의 자모를 읽는 자판)"),
  count: t.Optional(t.Integer({ minimum: 1, maximum: PRACTICE_RULES.maxWords, default: 30 })),
  focus: t.Optional(
    t.String({
      maxLength: 200,
      description: "쉼표로 나눈 자모나 전환 (맞춤 연습: 이것들이 많이 든 낱말부터)",
    }),
  ),
});

export const WordsSchema = t.Object({ words: t.Array(t.String()), focus: t.Array(t.String()) });

export const SentencesQuery = t.Object({
  count: t.Optional(t.Integer({ minimum: 1, maximum: PRACTICE_RULES.maxSentences, default: 10 })),
});

export const SentencesSchema = t.Object({ sentences: t.Array(t.Object({ id: t.Integer(), text: t.String() })) });

const LongTextAbout = {
  id: t.String(),
  title: t.String(),
  author: t.String(),
  year: t.Integer(),
  licence: t.String(),
  source: t.String(),
};

export const CatalogueSchema = t.Object({
  long: t.Array(t.Object({ ...LongTextAbout, paragraphs: t.Integer(), characters: t.Integer() })),
});

export const LongTextSchema = t.Object({ ...LongTextAbout, paragraphs: t.Array(t.String()) });

export const LongTextParams = t.Object({ id: t.String({ maxLength: 100 }) });

export const GoalBody = t.Object({
  // TypeBox's own Integer: Elysia's t.Integer also takes numeric strings, and a union's failure says only "형식이
  // 올바르지 않습니다." where this one says which bound was missed.
  wpm: Type.Integer({
    minimum: GOAL_RANGE.wpm.min,
    maximum: GOAL_RANGE.wpm.max,
    description: "목표 속도 (타/분)",
  }),
  accuracy: t.Number({
    minimum: GOAL_RANGE.accuracy.min,
    maximum: GOAL_RANGE.accuracy.max,
    description: "목표 정확도 % (소수 첫째 자리까지 저장)",
  }),
});

export const GoalSchema = t.Object({
  goal: t.Union(
    [t.Object({ wpm: t.Integer(), accuracy: t.Number(), updated_at: t.String({ format: "date-time" }) }), t.Null()],
    { description: "목표 (정하지 않았으면 null)" },
  ),
});

export const PracticeSummarySchema = t.Object({
  results: t.Integer({ description: "연습 수" }),
  total_minutes: t.Number({ description: "모든 연습 시간 (분)" }),
  practice_days: t.Integer({ description: "연습한 날 수" }),
  streak: t.Integer({ description: "연속 연습 일수 (서울 날짜)" }),
  best: t.Array(t.Object({ kind: t.String({ description: "keys, words, short, long, adaptive" }), wpm: t.Integer() }), {
    description: "연습한 종류마다 최고 속도 (타/분)",
  }),
  weakest: t.Array(FiguresSchema, { description: "최근 30일의 가장 약한 자모 (최대 3개)" }),
});
