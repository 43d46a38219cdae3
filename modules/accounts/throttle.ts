/**
 * Login throttling: failures are counted per e-mail and per IP in a sliding window. The same answer is given
 * for known and unknown e-mails, so the throttle reveals nothing about which accounts exist.
 * In-process memory: with several server processes each keeps its own counts (see README).
 */
export interface ThrottleLimits {
  windowMs: number;
  perEmail: number;
  perIp: number;
}

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = { windowMs: 15 * 60 * 1000, perEmail: 5, perIp: 30 };

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limits: ThrottleLimits,
    private readonly now: () => number,
  ) {}

  /** Seconds until the caller may try again, or 0 when allowed. */
  retryAfter(email: string, ip: string): number {
    const byEmail = this.recent(`e:${email}`);
    const byIp = this.recent(`i:${ip}`);
    const blocked = [
      byEmail.length >= this.limits.perEmail ? byEmail : null,
      byIp.length >= this.limits.perIp ? byIp : null,
    ].filter((list): list is number[] => list !== null);
    if (blocked.length === 0) return 0;
    const oldest = Math.max(...blocked.map((list) => list[0]));
    return Math.max(1, Math.ceil((oldest + this.limits.windowMs - this.now()) / 1000));
  }

  recordFailure(email: string, ip: string) {
    for (const key of [`e:${email}`, `i:${ip}`]) this.failures.set(key, [...this.recent(key), this.now()]);
    if (this.failures.size > 50_000) this.sweep();
  }

  recordSuccess(email: string) {
    this.failures.delete(`e:${email}`);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  private sweep() {
    for (const key of this.failures.keys()) if (this.recent(key).length === 0) this.failures.delete(key);
  }
}
