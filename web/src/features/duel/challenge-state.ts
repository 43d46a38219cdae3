/**
 * The /duel page's direct challenges (duel README "Direct challenges"), pure: the ones this member received and the
 * ones it sent, each until it is answered, closed by the server or past its time, and the last thing to tell the
 * member about them (a refusal, a decline, an expiry).
 */

/** A challenge as the page shows it: who (the other member), and when it runs out (client clock, ms). */
export interface PendingChallenge {
  id: string;
  sid: string;
  nickname: string;
  /** The challenger's rating (received challenges). */
  rating: number | null;
  expiresAt: number;
}

export interface ChallengesState {
  received: PendingChallenge[];
  sent: PendingChallenge[];
  /** Read out politely (`role="status"`); replaced by the next one. */
  notice: string | null;
}

export const noChallenges: ChallengesState = { received: [], sent: [], notice: null };

export type ChallengeEvent =
  | { type: "received"; challenge: PendingChallenge }
  | { type: "sent"; challenge: PendingChallenge }
  /** The server closed it (`duel:challenge_closed`): accepted, declined, expired, cancelled or busy. */
  | { type: "closed"; id: string; reason: string; message: string }
  /** This member answered or took it back: it goes without a notice. */
  | { type: "answered"; id: string }
  | { type: "notice"; text: string | null }
  /** Whatever ran out by `now` goes (the server tells of expiries too; this keeps the page right without it). */
  | { type: "tick"; now: number };

const without = (list: PendingChallenge[], id: string) => list.filter((challenge) => challenge.id !== id);

export function challengesReducer(state: ChallengesState, event: ChallengeEvent): ChallengesState {
  switch (event.type) {
    case "received":
      return { ...state, received: [...without(state.received, event.challenge.id), event.challenge] };
    case "sent":
      return { ...state, sent: [...without(state.sent, event.challenge.id), event.challenge], notice: null };
    case "closed": {
      const mine = state.sent.some((challenge) => challenge.id === event.id);
      const theirs = state.received.some((challenge) => challenge.id === event.id);
      if (!mine && !theirs) return state;
      // The accepted duel speaks for itself; a challenge this member declined needs no word either.
      const told = event.reason !== "accepted" && (mine || event.reason !== "declined");
      return {
        received: without(state.received, event.id),
        sent: without(state.sent, event.id),
        notice: told ? event.message : state.notice,
      };
    }
    case "answered":
      return { ...state, received: without(state.received, event.id), sent: without(state.sent, event.id) };
    case "notice":
      return { ...state, notice: event.text };
    case "tick": {
      const live = (list: PendingChallenge[]) => list.filter((challenge) => challenge.expiresAt > event.now);
      const received = live(state.received);
      const sent = live(state.sent);
      if (received.length === state.received.length && sent.length === state.sent.length) return state;
      return { ...state, received, sent };
    }
  }
}

/** Whole seconds left to answer, as the countdown shows them. */
export const secondsLeft = (challenge: PendingChallenge, now: number) =>
  Math.max(0, Math.ceil((challenge.expiresAt - now) / 1000));
