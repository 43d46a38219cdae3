import { ValueErrorType } from "@sinclair/typebox/errors";
import { Elysia } from "elysia";
import { isAppError } from "../../modules/kernel/errors";
import type { Logger } from "../../modules/kernel/logger";

interface FieldError {
  loc: string[];
  msg: string;
}

type ValidationIssue = { type: number; path: string; schema: Record<string, unknown>; value: unknown };

/** A Korean message per TypeBox failure. The submitted value is never included (no password echo). */
function koreanMessage(issue: ValidationIssue): string {
  const s = issue.schema;
  if (issue.value === undefined) return "필수 항목입니다.";
  switch (issue.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "필수 항목입니다.";
    case ValueErrorType.ObjectAdditionalProperties:
      return "허용되지 않는 항목이 포함되어 있습니다.";
    case ValueErrorType.StringMaxLength:
      return `최대 ${s.maxLength}자까지 입력할 수 있습니다.`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? "값을 입력해주세요." : `최소 ${s.minLength}자 이상 입력해야 합니다.`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `${s.maximum} 이하의 값이어야 합니다.`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `${s.minimum} 이상의 값이어야 합니다.`;
    case ValueErrorType.String:
      return "문자열이어야 합니다.";
    case ValueErrorType.Integer:
      return "정수여야 합니다.";
    case ValueErrorType.Number:
      return "숫자여야 합니다.";
    case ValueErrorType.Boolean:
      return "true 또는 false여야 합니다.";
    case ValueErrorType.Object:
      return "객체 형식이어야 합니다.";
    default:
      return issue.value === undefined ? "필수 항목입니다." : "형식이 올바르지 않습니다.";
  }
}

function fieldErrors(where: string, issues: ValidationIssue[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of issues) {
    const loc = [where, ...issue.path.split("/").filter(Boolean)];
    const key = loc.join(".");
    if (seen.has(key)) continue; // one message per field: the first failure is the one to fix
    seen.add(key);
    out.push({ loc, msg: koreanMessage(issue) });
  }
  return out.length ? out : [{ loc: [where], msg: "요청 형식이 올바르지 않습니다." }];
}

export const PARSE_FAILED = "요청 본문을 해석할 수 없습니다. 올바른 JSON을 보내주세요.";

export const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });

/**
 * The single error mapping of the HTTP API: domain errors keep their status and Korean detail; validation
 * failures become 422 with a list of { loc, msg }; parse failures 400; anything unexpected a logged 500
 * without internals.
 */
export function errorHandler(log: Logger) {
  return new Elysia({ name: "app.errors" }).onError({ as: "global" }, ({ code, error, set }) => {
    // What a route's parse hook throws (the write limits, kernel/write-limits.ts) reaches us inside a ParseError.
    const domain = isAppError(error) ? error : code === "PARSE" && isAppError(error.cause) ? error.cause : null;
    if (domain) {
      const retry: Record<string, string> = domain.code?.startsWith("retry_after:")
        ? { "retry-after": domain.code.slice(12) }
        : {};
      return jsonResponse(
        domain.status,
        { ...domain.fields, detail: domain.detail },
        { ...retry, ...(set.headers as object) },
      );
    }
    switch (code) {
      case "VALIDATION": {
        const issues = (error as unknown as { all: ValidationIssue[] }).all ?? [];
        // Elysia reports numeric query/path coercion failures as "property" without the field's name.
        const type = (error as unknown as { type?: string }).type;
        const where = !type ? "body" : type === "property" ? "request" : type;
        return jsonResponse(422, { detail: fieldErrors(where, issues) });
      }
      case "PARSE":
        return jsonResponse(400, { detail: PARSE_FAILED });
      case "NOT_FOUND":
        return jsonResponse(404, { detail: "요청한 자원을 찾을 수 없습니다." });
      case "INVALID_COOKIE_SIGNATURE":
        return jsonResponse(400, { detail: "요청 형식이 올바르지 않습니다." });
      default: {
        const status = (error as { status?: number }).status;
        if (typeof status === "number" && status >= 400 && status < 500) {
          return jsonResponse(status, { detail: "요청을 처리할 수 없습니다." });
        }
        log.error("unhandled error", { code: String(code), error: String((error as Error)?.stack ?? error) });
        return jsonResponse(500, { detail: "서버 오류가 발생했습니다. 잠시 후 다시 시도해주세요." });
      }
    }
  });
}
