/**
 * Typed domain errors. Services throw them; the HTTP layer maps them once to `{ detail }` with the status,
 * the socket layer to an `error` event, and the CLI to a message and exit code. The detail is the text a
 * person reads (Korean), never the submitted value.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
    /** Extra fields of the answer next to `detail` (machine-readable, e.g. accounts' session `reason`). */
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(detail);
    this.name = "AppError";
  }
}

export const badRequest = (detail: string, code?: string) => new AppError(400, detail, code);
export const unauthorized = (detail = "인증이 필요합니다. 다시 로그인해주세요.", code?: string) =>
  new AppError(401, detail, code);
export const forbidden = (detail = "권한이 없습니다.", code?: string) => new AppError(403, detail, code);
export const notFound = (detail = "요청한 자원을 찾을 수 없습니다.", code?: string) => new AppError(404, detail, code);
export const conflict = (detail: string, code?: string) => new AppError(409, detail, code);
export const unprocessable = (detail: string, code?: string) => new AppError(422, detail, code);
export const tooManyRequests = (detail: string, code?: string) => new AppError(429, detail, code);

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
