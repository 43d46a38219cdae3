/**
 * Navigation for code outside React (the API client, the session actions). main.tsx points it at the router;
 * before that, or in tests, it falls back to a full page load.
 */
import type { User } from "../features/session/types";

/** Router history state the shell's pages hand to each other. */
export interface AppHistoryState {
  /** /login: a notice shown above the form (session lost, log in first, …). */
  loginMessage?: string;
  /** /login: where to go after the login (a path of this site, e.g. the page whose session the server ended). */
  returnTo?: string;
  /** /login: the e-mail of a just-registered account (success banner, prefilled field). */
  registeredEmail?: string;
  /** /login: an e-mail to prefill without the registration banner (after a password reset). */
  email?: string;
  /** /password-reset: the user returned by a login that requires a new password. */
  resetUser?: User;
  /** Any page: why the visitor was sent here (shown by the shell above the page, e.g. an admin-only page). */
  notice?: string;
}

export type Navigator = (to: string, state?: AppHistoryState) => void;

/** `returnTo` when it is a page of this site other than the account pages (never `//elsewhere` or a URL). */
export function safeReturnTo(returnTo: unknown): string | null {
  if (typeof returnTo !== "string" || !returnTo.startsWith("/") || /^\/[\\/]/.test(returnTo)) return null;
  return /^\/(login|register|password-reset|password-forgot)(\/|\?|#|$)/.test(returnTo) ? null : returnTo;
}

let current: Navigator = (to) => globalThis.location?.assign(to);

export function setNavigator(navigator: Navigator) {
  current = navigator;
}

export const navigateTo: Navigator = (to, state) => current(to, state);

/** Re-runs the current page's route guards (the session changed under it, e.g. a logout in another tab). */
let revalidate: () => void = () => {};
export function setRouteRevalidator(revalidator: () => void) {
  revalidate = revalidator;
}
export const revalidateRoutes = () => revalidate();
