/**
 * The session in jotai: the state atom is private; components read the derived atoms and call `session.*`,
 * which runs the machine's actions against the app's API client, token store, store and router.
 */
import { atom } from "jotai";
import { SESSION_CLOSED_EVENT, sessionClosedFrom } from "../../../../modules/kernel/session-end";
import { api, setSessionLostHandler } from "../../lib/api";
import { navigateTo, revalidateRoutes } from "../../lib/navigation";
import { setSessionCheck, setSocketTokenSource, socketManager } from "../../lib/socket";
import { appStore } from "../../lib/store";
import { tokens } from "../../lib/tokens";
import * as machine from "./machine";
import type { LoginInput, User } from "./types";

const sessionState = atom<machine.SessionState>(machine.initialSession);

export const sessionAtom = atom((get) => get(sessionState));
export const sessionStatusAtom = atom((get) => get(sessionState).status);
export const sessionErrorAtom = atom((get) => get(sessionState).error);
/** The signed-in user, or null (a user who must reset the password is not signed in). */
export const currentUserAtom = atom((get) => {
  const { status, user } = get(sessionState);
  return status === "authenticated" ? user : null;
});
export const isAuthenticatedAtom = atom((get) => get(sessionState).status === "authenticated");
export const isAdminAtom = atom((get) => get(currentUserAtom)?.is_admin === true);

export interface UserStats {
  level: number;
  experience: number;
  coins: number;
  points: number;
  gold_medals: number;
  silver_medals: number;
  bronze_medals: number;
}
/** Level, coins, points and medals of the signed-in user, updated live by `user:stats_update`. */
export const userStatsAtom = atom<UserStats | null>((get) => {
  const user = get(currentUserAtom);
  if (!user) return null;
  const { level, experience, coins, points, gold_medals, silver_medals, bronze_medals } = user;
  return { level, experience, coins, points, gold_medals, silver_medals, bronze_medals };
});

const dispatch = (event: machine.SessionEvent) =>
  appStore.set(sessionState, machine.sessionReducer(appStore.get(sessionState), event));

const deps: machine.SessionDeps = { api, tokens, dispatch, navigate: navigateTo };

export const session = {
  start: () => machine.startSession(deps),
  login: (input: LoginInput): Promise<User> => machine.login(deps, input),
  logout: (options?: { to?: string | null }) => machine.logout(deps, options),
  reload: () => machine.reloadUser(deps),
  /** Local figures changed by a page (e.g. a purchase): merged like a live stats update. */
  applyStats: (stats: Partial<User>) => dispatch({ type: "STATS_UPDATED", stats }),
  dismissError: () => dispatch({ type: "ERROR_DISMISSED" }),
  get: () => appStore.get(sessionState),
};

/** Who this tab is signed in as: a change needs a new socket handshake and the page's guards run again. */
const identityOf = ({ status, user }: machine.SessionState) =>
  status === "authenticated" || status === "password_reset_required" ? `${status}:${user?.id}` : "anonymous";

/** A login or logout in another tab: this tab follows, then reconnects as the new identity. */
async function followOtherTab(change: "set" | "cleared") {
  const before = identityOf(session.get());
  await machine.followOtherTab(deps, change);
  if (identityOf(session.get()) === before) return;
  socketManager.changeIdentity();
  revalidateRoutes();
}

/**
 * A tab that started without a connection kept its tokens but could not check them (anonymous, "사용자 정보를
 * 불러오는데 실패했습니다."): when the connection returns, it checks them, and signs in as their member.
 */
async function resumeWhenOnline() {
  if (identityOf(session.get()) !== "anonymous" || !tokens.access()) return;
  await session.reload();
  if (identityOf(session.get()) === "anonymous") return;
  socketManager.changeIdentity();
  revalidateRoutes();
}

let wired = false;
/** Connects the session to the API client's lost-session signal and to the socket. Called once by main.tsx. */
export function wireSession() {
  if (wired) return;
  wired = true;
  setSessionLostHandler((ended) => {
    const wasSignedIn = identityOf(session.get()) !== "anonymous";
    machine.sessionLost(deps, ended);
    // Said where the player is (the shell's notice offers the login); a members-only page's guard sends them to
    // /login with the reason and back here after it. (At start-up the router is not mounted yet: nothing to run.)
    if (ended && wasSignedIn) revalidateRoutes();
  });
  // A reset-only token cannot open a member socket; such a user stays a guest until the new password is set.
  setSocketTokenSource(() =>
    appStore.get(sessionState).status === "password_reset_required" ? null : tokens.access(),
  );
  tokens.subscribe((change, origin) => {
    if (origin === "other_tab" && change !== "refreshed") void followOtherTab(change);
  });
  setSessionCheck(() => machine.confirmSession(deps));
  // The server ends the session (password changed elsewhere, forced reset, deactivation) and says why first.
  socketManager.subscribe(SESSION_CLOSED_EVENT, (payload: unknown) => {
    const ended = sessionClosedFrom(payload);
    if (ended && machine.sessionEndedByServer(deps, session.get(), ended)) revalidateRoutes();
  });
  globalThis.addEventListener?.("online", () => void resumeWhenOnline());
  socketManager.subscribe("user:stats_update", (payload: unknown) => {
    if (payload && typeof payload === "object") session.applyStats(payload as Partial<User>);
  });
}
