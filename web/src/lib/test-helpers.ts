/** Helpers for the web app's unit tests (never imported by the app itself). */
import type { ApiError } from "./api";

/** The error a call rejected with (fails the test if it resolved). */
export async function rejection<T = ApiError>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (error) {
    return error as T;
  }
  throw new Error("expected the call to fail");
}
