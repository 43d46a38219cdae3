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
  perEmail: number;
  perIp: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60 * 1000, perEmail: 5, perIp: 30 };
/** About 40 registrations of a classroom behind one address fit; a script hashing passwords for hours does not. */
export const REGISTER_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 50 };
export const RESET_PASSWORD_LIMIT: WindowLimit = { windowMs: 15 * 60 * 1000, limit: 60 };
/** "비밀번호 찾기": each request may send a mail. 20 per address and 3 per e-mail an hour. */
export const FORGOT_PASSWORD_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 20 };
export const FORGOT_PASSWORD_EMAIL_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 3 };

/** A login attempt counted before its password is checked; `retryAfter` > 0 means it was refused (not counted). */
export interface LoginAttempt {
  retryAfter: number;
  emailKey: string;
  ipKey: string;
  /** When the address's attempt was recorded (what `succeeded` takes back). */
  at: number;
}

/** Logins: limits per e-mail and per address, counted before the password is checked. */
export interface LoginLimiter {
  /** Counts an attempt for this e-mail and address, unless one of them is already at its limit. */
  begin(email: string, ip: string): Promise<LoginAttempt>;
  /** The password was right: the attempt does not count, and the e-mail's earlier failures are forgotten. */
  succeeded(attempt: LoginAttempt): Promise<void>;
}

/**
 * Login throttling: every attempt is counted per e-mail and per address before the password is checked (checking
 * takes ~20 ms, and parallel attempts must not all pass a check made before any of them failed). A success takes
 * its own attempt back and clears the e-mail's failures. The same answer is given for known and unknown e-mails, so
 * the throttle reveals nothing about which accounts exist.
 */
export class LoginThrottle implements LoginLimiter {
  private readonly byEmail: AttemptCounter;
  private readonly byIp: AttemptCounter;
  // Check and count are several calls: attempts of this process go one at a time, so a burst of parallel attempts
  // cannot all pass a check made before any of them was counted.
  private readonly serial = createLock();

  constructor(limits: LoginLimits, counters: CounterFactory) {
    this.byEmail = counters("login_email", { windowMs: limits.windowMs, limit: limits.perEmail });
    this.byIp = counters("login_ip", { windowMs: limits.windowMs, limit: limits.perIp });
  }

  begin(email: string, ip: string): Promise<LoginAttempt> {
    const emailKey = email;
    const ipKey = addressLimitKey(ip);
    return this.serial(async () => {
      const byEmail = await this.byEmail.take(emailKey);
      if (byEmail.retryAfter > 0) return { retryAfter: byEmail.retryAfter, emailKey, ipKey, at: 0 };
      const byIp = await this.byIp.take(ipKey);
      if (byIp.retryAfter > 0) {
        // Refused by the address: the e-mail's attempt, counted a moment ago, did not happen either.
        await this.byEmail.forgive(emailKey, byEmail.at);
        return { retryAfter: byIp.retryAfter, emailKey, ipKey, at: 0 };
      }
      // The address's own record time: a success forgives exactly that attempt (the e-mail's are cleared).
      return { retryAfter: 0, emailKey, ipKey, at: byIp.at };
    });
  }

  async succeeded(attempt: LoginAttempt) {
    await Promise.all([this.byEmail.clear(attempt.emailKey), this.byIp.forgive(attempt.ipKey, attempt.at)]);
  }
}
