import { AppError } from "../../../domain/errors";

type Failures = { count: number; lastAt: number };
type Limit = { free: number; baseMs: number; capMs: number };

export type ThrottleLimits = { account: Limit; address: Limit; forgetMs: number; maxKeys: number };

/**
 * Failed sign-ins (wrong password, wrong second factor) slow further attempts, counted twice and apart: per
 * account (whatever address the guesses come from) and per address (a spray across accounts). After the free
 * failures each further one doubles the wait since the last failure, up to a cap: a backoff, not a wall, so a
 * clinic behind one NAT address waits a minute at most for a neighbour's typos. Counts are forgotten
 * `forgetMs` after the last failure. Per process, like the rate-limit plugin's default store.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly limits: ThrottleLimits = {
      account: { free: 5, baseMs: 5_000, capMs: 15 * 60_000 },
      address: { free: 20, baseMs: 1_000, capMs: 60_000 },
      forgetMs: 60 * 60_000,
      maxKeys: 50_000,
    },
  ) {}

  /** How long the next attempt for this account from this address must wait (0: may try now). */
  waitMs(ip: string, email: string, now = Date.now()): number {
    return Math.max(
      this.remaining(`a|${email.toLowerCase()}`, this.limits.account, now),
      this.remaining(`i|${ip}`, this.limits.address, now),
    );
  }

  /** Throws RATE_LIMITED while either wait runs. */
  check(ip: string, email: string, now = Date.now()): void {
    const wait = this.waitMs(ip, email, now);
    if (wait <= 0) return;
    const seconds = Math.ceil(wait / 1000);
    const when = seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
    throw new AppError("RATE_LIMITED", `Too many failed sign-in attempts. Try again in ${when}.`);
  }

  fail(ip: string, email: string, now = Date.now()): void {
    if (this.failures.size > this.limits.maxKeys) this.prune(now);
    for (const key of [`a|${email.toLowerCase()}`, `i|${ip}`]) {
      const current = this.current(key, now);
      this.failures.set(key, { count: (current?.count ?? 0) + 1, lastAt: now });
    }
  }

  /** A correct sign-in clears that account's count (not the address's). */
  succeed(_ip: string, email: string): void {
    this.failures.delete(`a|${email.toLowerCase()}`);
  }

  private remaining(key: string, limit: Limit, now: number): number {
    const failures = this.current(key, now);
    if (!failures || failures.count < limit.free) return 0;
    const wait = Math.min(limit.baseMs * 2 ** (failures.count - limit.free), limit.capMs);
    return Math.max(0, failures.lastAt + wait - now);
  }

  private current(key: string, now: number): Failures | undefined {
    const failures = this.failures.get(key);
    if (failures && failures.lastAt + this.limits.forgetMs <= now) {
      this.failures.delete(key);
      return undefined;
    }
    return failures;
  }

  private prune(now: number): void {
    for (const [key, failures] of this.failures) {
      if (failures.lastAt + this.limits.forgetMs <= now) this.failures.delete(key);
    }
  }
}
