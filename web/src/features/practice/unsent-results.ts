/**
 * A member's practice results not yet on the server (modules/practice README "Offline"): kept in localStorage, each
 * with its client id and the member it belongs to, until the server has it. Sent when a practice ends, at start and
 * when the connection returns (unsent-sync.ts).
 *
 * - **At most once**: one sending at a time — in this tab the runs are chained, across tabs they hold one
 *   `navigator.locks` lock — and a run reads the queue when it starts, so a result leaves the queue before another
 *   run can see it. A copy still sent twice (the answer lost on the way back) is stored once by its client id.
 * - **Never lost**: a result leaves the queue only when the server answered for it: stored (or stored before), or
 *   refused for good (422: the rules will refuse it again). A network failure, a 5xx, a 429 or a lost session keeps
 *   it, and the run stops there (the rest would fail the same way).
 * - **Its member's**: a result is sent only while its member is signed in (the stored token's account), so
 *   another account signing in on this browser never gets it.
 */
import { isApiError } from "../../lib/api";
import { browserStorage, type KeyValueStorage, tokenSubject, tokens } from "../../lib/tokens";
import { practiceApi, type Recorded, type ResultInput } from "./practice-api";
import { UNSENT_KEY } from "./unsent-sync";

export interface UnsentResult {
  /** The member who practised it. */
  owner: number;
  result: ResultInput;
}

export interface SendOutcome {
  /** What the server answered for each result it has now (by client id). */
  sent: Map<string, Recorded>;
  /** Results the server refused for good, with its reason (dropped from the queue). */
  refused: Map<string, string>;
  /** Results of this member still waiting (the connection failed). */
  waiting: number;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface QueueDeps {
  storage: () => KeyValueStorage;
  send: (result: ResultInput) => Promise<Recorded>;
  /** The member signed in now (null: nobody, or a guest). */
  owner: () => number | null;
  locks?: LockManagerLike | null;
}

const LOCK = "tajamadang:practice-unsent";

/** The server will refuse this again: the rules (422) or a malformed request (400). */
const refusedForGood = (error: unknown) => isApiError(error) && (error.status === 400 || error.status === 422);

export function createResultQueue(deps: QueueDeps) {
  const read = (): UnsentResult[] => {
    try {
      const parsed = JSON.parse(deps.storage().getItem(UNSENT_KEY) ?? "[]");
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  };
  const write = (entries: UnsentResult[]) =>
    entries.length > 0
      ? deps.storage().setItem(UNSENT_KEY, JSON.stringify(entries))
      : deps.storage().removeItem(UNSENT_KEY);
  // Read again at every change: another tab (or the page) may have added one meanwhile.
  const remove = (clientId: string) => write(read().filter((entry) => entry.result.client_id !== clientId));

  async function run(): Promise<SendOutcome> {
    const outcome: SendOutcome = { sent: new Map(), refused: new Map(), waiting: 0 };
    const owner = deps.owner();
    if (owner === null) return outcome;
    const mine = read().filter((entry) => entry.owner === owner);
    for (const [i, { result }] of mine.entries()) {
      try {
        outcome.sent.set(result.client_id, await deps.send(result));
        remove(result.client_id);
      } catch (error) {
        if (!refusedForGood(error)) {
          outcome.waiting = mine.length - i;
          break;
        }
        outcome.refused.set(result.client_id, isApiError(error) ? error.detail : "");
        remove(result.client_id);
      }
    }
    return outcome;
  }

  let tail: Promise<unknown> = Promise.resolve();
  return {
    /** Keeps a finished result until the server has it. */
    add(owner: number, result: ResultInput) {
      write([...read().filter((entry) => entry.result.client_id !== result.client_id), { owner, result }]);
    },
    /** The results waiting, of every member. */
    pending: read,
    /** Sends the signed-in member's waiting results, after any sending already under way. */
    send(): Promise<SendOutcome> {
      const next = tail.then(() => (deps.locks ? deps.locks.request(LOCK, run) : run()));
      tail = next.catch(() => {});
      return next;
    },
  };
}

/** The account of the stored token: the member, also while the session could not be checked (started offline). */
export const tokenOwner = () => {
  const subject = Number(tokenSubject(tokens.access()));
  return Number.isInteger(subject) && subject > 0 ? subject : null;
};

export const unsentResults = createResultQueue({
  storage: browserStorage,
  send: practiceApi.record,
  owner: tokenOwner,
  get locks() {
    return (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? null;
  },
});
