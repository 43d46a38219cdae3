import { createLock } from "../../db/database";
import type { AttemptCounter, CounterFactory, WindowLimit } from "../kernel/counters";
import { addressLimitKey } from "../kernel/request-info";

/**
 * Account throttles (login, registration, password resets) on the kernel's sliding-window counters
 * (modules/kernel/counters.ts): in memory on one process, in Redis (counters-redis.ts) shared by every process.
 */

/** Registrations and password resets: one limit per address. */
export interface AddressLimiter {
  /** Counts the attempt when allowed and answers 0; otherwise the seconds to wait (nothing counted). */
  take(ip: string): Promise<number>;
}

/** One limit per address (IPv6 by its /64): registrations and password resets, each costing a password hash. */
export class AddressThrottle implements AddressLimiter {
  private readonly counter: AttemptCounter;
  // Check and count are two calls: attempts of this process go one at a time, so a burst cannot all pass the check.
  private readonly serial = createLock();

  constructor(name: string, limit: WindowLimit, counters: CounterFactory) {
    this.counter = counters(name, limit);
  }

  take(ip: string): Promise<number> {
    const key = addressLimitKey(ip);
    return this.serial(async () => (await this.counter.take(key)).retryAfter);
  }
}

export interface LoginLimits {
  windowMs: number;
  /** Failures per (e-mail, address): the guesses one address may make at one account. */
  perPair: number;
  /** Attempts per address, whatever the e-mail (a script trying many accounts). */
  perIp: number;
  /**
   * Attempts per e-mail across all addresses (a guesser spread over many addresses), far above `perPair` (at least
   * 10×) and never applied to an address the e-mail logged in from within `knownForMs`.
   */
  perEmail: number;
  /** How long an address where the e-mail logged in successfully stays its known address. */
  knownForMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  windowMs: 15 * 60 * 1000,
  perPair: 5,
  perIp: 30,
  perEmail: 100,
  knownForMs: 30 * 24 * 60 * 60 * 1000,
};
/** About 40 registrations of a classroom behind one address fit; a script hashing passwords for hours does not. */
export const REGISTER_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 50 };
export const RESET_PASSWORD_LIMIT: WindowLimit = { windowMs: 15 * 60 * 1000, limit: 60 };
/** "비밀번호 찾기": each request may send a mail. 20 per address and 3 per e-mail an hour. */
export const FORGOT_PASSWORD_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 20 };
export const FORGOT_PASSWORD_EMAIL_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 3 };

/** A login attempt counted before its password is checked; `retryAfter` > 0 means it was refused (not counted). */
export interface LoginAttempt {
  retryAfter: number;
  pairKey: string;
  ipKey: string;
  emailKey: string;
  /** When the address's attempt was recorded (what `succeeded` takes back). */
  ipAt: number;
  /** When the e-mail-wide attempt was recorded; null when it was not counted (a known address). */
  emailAt: number | null;
}

/** Logins: limits per (e-mail, address), per address and (much higher) per e-mail, counted before the check. */
export interface LoginLimiter {
  /** Counts an attempt for this e-mail and address, unless one of its limits is reached already. */
  begin(email: string, ip: string): Promise<LoginAttempt>;
  /** The password was right: the attempt does not count, and the pair's earlier failures are forgotten. */
  succeeded(attempt: LoginAttempt): Promise<void>;
}

/**
 * Login throttling. Every attempt is counted before its password is checked (checking takes ~20 ms, and parallel
 * attempts must not all pass a check made before any of them failed):
 * - per (e-mail, address): a few failures, then that address waits for that account;
 * - per address: a script trying many accounts from one place;
 * - per e-mail across all addresses: a guesser spread over many addresses, only at a much higher count, and never
 *   for an address the e-mail logged in from lately (its owner's usual place).
 * A stranger's failures therefore cost the stranger: they never lock the owner out of their own account, as a
 * limit per e-mail alone would (five wrong passwords from anywhere, and the owner waits 15 minutes).
 * A success takes its own attempts back, clears the pair's failures and marks the address known for the e-mail.
 * The same answer is given for known and unknown e-mails, so the throttle reveals nothing about which exist.
 */
export class LoginThrottle implements LoginLimiter {
  private readonly byPair: AttemptCounter;
  private readonly byIp: AttemptCounter;
  private readonly byEmail: AttemptCounter;
  /** Addresses where an e-mail logged in: a mark (limit 1) that lasts `knownForMs`, in the same store as the counts. */
  private readonly known: AttemptCounter;
  // Check and count are several calls: attempts of this process go one at a time, so a burst of parallel attempts
  // cannot all pass a check made before any of them was counted. (Each `take` is atomic in the shared store, so
  // several processes never pass a limit either: a refused step gives the earlier steps' attempts back.)
  private readonly serial = createLock();

  constructor(limits: LoginLimits, counters: CounterFactory) {
    this.byPair = counters("login_pair", { windowMs: limits.windowMs, limit: limits.perPair });
    this.byIp = counters("login_ip", { windowMs: limits.windowMs, limit: limits.perIp });
    this.byEmail = counters("login_email", { windowMs: limits.windowMs, limit: limits.perEmail });
    this.known = counters("login_known", { windowMs: limits.knownForMs, limit: 1 });
  }

  begin(email: string, ip: string): Promise<LoginAttempt> {
    const ipKey = addressLimitKey(ip);
    // An address key has no space (IPv4, or an IPv6 /64), so the pair key splits one way only.
    const pairKey = `${ipKey} ${email}`;
    const refused = (retryAfter: number): LoginAttempt => ({
      retryAfter,
      pairKey,
      ipKey,
      emailKey: email,
      ipAt: 0,
      emailAt: null,
    });
    return this.serial(async () => {
      const byPair = await this.byPair.take(pairKey);
      if (byPair.retryAfter > 0) return refused(byPair.retryAfter);
      const byIp = await this.byIp.take(ipKey);
      if (byIp.retryAfter > 0) {
        // Refused by the address: the pair's attempt, counted a moment ago, did not happen either.
        await this.byPair.forgive(pairKey, byPair.at);
        return refused(byIp.retryAfter);
      }
      let emailAt: number | null = null;
      if ((await this.known.retryAfter(pairKey)) === 0) {
        const byEmail = await this.byEmail.take(email);
        if (byEmail.retryAfter > 0) {
          await Promise.all([this.byPair.forgive(pairKey, byPair.at), this.byIp.forgive(ipKey, byIp.at)]);
          return refused(byEmail.retryAfter);
        }
        emailAt = byEmail.at;
      }
      return { retryAfter: 0, pairKey, ipKey, emailKey: email, ipAt: byIp.at, emailAt };
    });
  }

  async succeeded(attempt: LoginAttempt) {
    await Promise.all([
      this.byPair.clear(attempt.pairKey),
      this.byIp.forgive(attempt.ipKey, attempt.ipAt),
      // Only its own attempt: the owner logging in must not wipe a spread guesser's count.
      attempt.emailAt === null ? undefined : this.byEmail.forgive(attempt.emailKey, attempt.emailAt),
      this.known.record(attempt.pairKey),
    ]);
  }
}
