/**
 * `beforeLoad` guards for routes. The router is mounted only after the session has resolved, so these see the
 * final state. Usage: `createRoute({ ..., beforeLoad: requireLogin("…메시지…") })`.
 */
import { redirect } from "@tanstack/react-router";
import { isAdminAtom, isAuthenticatedAtom, sessionAtom } from "../features/session/atoms";
import type { AppHistoryState } from "../lib/navigation";
import type { RouterContext } from "./root";

export const LOGIN_REQUIRED_MESSAGE = "로그인이 필요합니다. 먼저 로그인해주세요.";

/**
 * Not signed in → /login with a notice. When the server just ended the session, the notice says why (not the
 * page's "…로그인이 필요합니다.") and the login comes back to this page.
 */
export const requireLogin =
  (message = LOGIN_REQUIRED_MESSAGE) =>
  ({ context, location }: { context: RouterContext; location: { href: string } }) => {
    if (context.store.get(isAuthenticatedAtom)) return;
    throw redirect({ to: "/login", state: loginState(context, location, message) as never });
  };

/** The /login state for a visitor who is not signed in: the page's message, or why the server ended the session. */
export function loginState(context: RouterContext, location: { href: string }, message: string): AppHistoryState {
  const { ended, error } = context.store.get(sessionAtom);
  return ended && error ? { loginMessage: error, returnTo: location.href } : { loginMessage: message };
}

export const ADMIN_ONLY_MESSAGE = "관리자만 이용할 수 있는 페이지입니다.";
export const ADMIN_LOGIN_MESSAGE = "관리자만 이용할 수 있는 페이지입니다. 관리자 계정으로 로그인해주세요.";

/** Not an administrator → / (spec part 2 §6), told why above the home page (not a silent redirect). */
export const requireAdmin =
  () =>
  ({ context }: { context: RouterContext }) => {
    if (context.store.get(isAdminAtom)) return;
    const notice = context.store.get(isAuthenticatedAtom) ? ADMIN_ONLY_MESSAGE : ADMIN_LOGIN_MESSAGE;
    throw redirect({ to: "/", state: { notice } as never });
  };
