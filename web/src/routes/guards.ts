/**
 * `beforeLoad` guards for routes. The router is mounted only after the session has resolved, so these see the
 * final state. Usage: `createRoute({ ..., beforeLoad: requireLogin("…메시지…") })`.
 */
import { redirect } from "@tanstack/react-router";
import { isAdminAtom, isAuthenticatedAtom } from "../features/session/atoms";
import type { RouterContext } from "./root";

export const LOGIN_REQUIRED_MESSAGE = "로그인이 필요합니다. 먼저 로그인해주세요.";

/** Not signed in → /login with a notice. */
export const requireLogin =
  (message = LOGIN_REQUIRED_MESSAGE) =>
  ({ context }: { context: RouterContext }) => {
    if (!context.store.get(isAuthenticatedAtom)) {
      throw redirect({ to: "/login", state: { loginMessage: message } as never });
    }
  };

/** Not an administrator → / (spec part 2 §6). */
export const requireAdmin =
  () =>
  ({ context }: { context: RouterContext }) => {
    if (!context.store.get(isAdminAtom)) throw redirect({ to: "/" });
  };
