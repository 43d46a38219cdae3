import { CloneType, Kind, type TObject, TransformKind, type TSchema, type TString } from "@sinclair/typebox";
import { t } from "elysia";

/** Every error answer of the API: a Korean `detail`, or for 422 a list of `{ loc, msg }`. */
export const ErrorSchema = t.Object({
  detail: t.Union([t.String(), t.Array(t.Object({ loc: t.Array(t.String()), msg: t.String() }))]),
});

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429;

/** The standard description of each error status (Swagger shows it next to the status). */
export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "요청이 올바르지 않습니다",
  401: "로그인이 필요합니다",
  403: "권한이 없습니다",
  404: "요청한 자원을 찾을 수 없습니다",
  409: "현재 상태와 맞지 않는 요청입니다",
  422: "입력값이 올바르지 않습니다",
  429: "요청이 너무 많습니다",
};

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: "성공", 201: "만들어짐" };

/** A route's errors: `true` takes the standard description, a string says what is missing or conflicts. */
export type ErrorAnswers = Partial<Record<ErrorStatus, string | true>>;

const ACCOUNT_REFUSED = "비활성화된 계정이거나 비밀번호를 재설정해야 합니다";

/**
 * What accounts' `requireUser` guard adds: 401 without a usable token, 403 for a deactivated account or one that
 * must reset its password. `forbidden` names the route's own 403 (not the author, not a guild officer…).
 */
export const loginRequired = (forbidden?: string) =>
  ({ 401: true, 403: forbidden ? `${forbidden} (또는 ${ACCOUNT_REFUSED})` : ACCOUNT_REFUSED }) as const;

/** What accounts' `requireAdmin` guard adds to `requireUser`'s answers. */
export const ADMIN_REQUIRED = {
  401: true,
  403: "관리자가 아니거나, 비활성화된 계정이거나 비밀번호를 재설정해야 합니다",
} as const satisfies ErrorAnswers;

type DetailSchema = TObject<{ detail: TString }>;
type ErrorSchemas<E extends ErrorAnswers> = {
  [S in keyof E & ErrorStatus]: S extends 422 ? typeof ErrorSchema : DetailSchema;
};

/** One documented error answer: `{ detail }` with its Korean description (422 also Elysia's validation list). */
export function errorSchema(status: ErrorStatus, description: string): TSchema {
  // 422 is also Elysia's validation failure, whose detail is a list of { loc, msg }.
  if (status === 422) return CloneType(ErrorSchema, { description });
  return t.Object({ detail: t.String() }, { description });
}

/**
 * Elysia's `t.Integer`/`t.Numeric` accept a numeric string (query coercion) and so are documented as
 * `anyOf [string "integer", integer]`, which Swagger UI shows as `"0"`. An answer is always a number: keep
 * the plain member of each such union (with the field's own options), everywhere in the tree.
 */
export function plainNumbers<T extends TSchema>(schema: T): T {
  const node = schema as TSchema & Record<PropertyKey, unknown>;
  const members = node.anyOf as TSchema[] | undefined;
  if (node[TransformKind] && node[Kind] === "Union" && members?.length === 2 && isNumericString(members[0])) {
    const plain = CloneType(members[1]) as TSchema & Record<PropertyKey, unknown>;
    // Keep the field's own marks (Optional, Readonly); drop the transform.
    for (const mark of Object.getOwnPropertySymbols(node)) if (mark !== TransformKind) plain[mark] ??= node[mark];
    return plain as T;
  }
  const copy = CloneType(schema) as TSchema & Record<string, unknown>;
  if (copy.properties) {
    const properties = copy.properties as Record<string, TSchema>;
    for (const key of Object.keys(properties)) properties[key] = plainNumbers(properties[key]);
  }
  if (copy.items && !Array.isArray(copy.items)) copy.items = plainNumbers(copy.items as TSchema);
  for (const key of ["anyOf", "allOf", "oneOf"] as const) {
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as TSchema[]).map(plainNumbers);
  }
  return copy as T;
}

const isNumericString = (schema: TSchema) =>
  schema.type === "string" && (schema.format === "integer" || schema.format === "numeric");

/**
 * A route's `response`: its success answer (plain numbers, "성공"/"만들어짐" unless described) and exactly the
 * error statuses its handler and guards can answer, each `{ detail }` with a Korean description.
 * `apiResponses({ 201: PostSchema }, { ...loginRequired(), 404: "게시글을 찾을 수 없습니다", 422: true })`
 */
export function apiResponses<
  const Ok extends Partial<Record<200 | 201, TSchema>>,
  const E extends ErrorAnswers = Record<never, never>,
>(ok: Ok, errors: E = {} as E): Ok & ErrorSchemas<E> {
  const answers: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(ok) as [string, TSchema][]) {
    const description = schema.description ?? SUCCESS_DESCRIPTIONS[Number(status)];
    answers[Number(status)] = CloneType(plainNumbers(schema), { description });
  }
  for (const [status, text] of Object.entries(errors) as [string, string | true][]) {
    const code = Number(status) as ErrorStatus;
    answers[code] = errorSchema(code, text === true ? ERROR_DESCRIPTIONS[code] : text);
  }
  return answers as Ok & ErrorSchemas<E>;
}
