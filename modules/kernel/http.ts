import { t } from "elysia";

/** Every error answer of the API: a Korean `detail`, or for 422 a list of `{ loc, msg }`. */
export const ErrorSchema = t.Object({
  detail: t.Union([t.String(), t.Array(t.Object({ loc: t.Array(t.String()), msg: t.String() }))]),
});
