import { AppError } from "../../../domain/errors";
import type { Count, RateCounters } from "../../platform/rate-counters";

type Limit = { free: number; baseMs: number; capMs: number };

export type ThrottleLimits = { account: Limit; address: Limit; forgetMs: number };

export const defaultLimits: ThrottleLimits = {
  account: { free: 5, baseMs: 5_000, capMs: 15 * 60_000 },
  address: { free: 20, baseMs: 1_000, capMs: 60_000 },
  forgetMs: 60 * 60_000,
};

/**
 * Failed sign-ins (wrong password, wrong second factor) slow further attempts, counted twice and apart: per
 * account (whatever address the guesses come from) and per address (a spray across accounts). After the free
 * failures each further one doubles the wait since the last failure, up to a cap: a backoff, not a wall, so a
 * clinic behind one NAT address waits a minute at most for a neighbour's typos. Counts are forgotten
 * `forgetMs` after the last failure. The counts are in the database (RateCounters), so every web process sees
 * the same; `scope` keeps sign-in and re-authentication apart.
 */
export class LoginThrottle {
  constructor(
    private readonly counters: RateCounters,
    private readonly scope: string,
    private readonly limits: ThrottleLimits = defaultLimits,
  ) {}

  /** How long the next attempt for this account from this address must wait (0: may try now). */
  async waitMs(ip: string, email: string): Promise<number> {
    const account = this.accountKey(email);
    const address = this.addressKey(ip);
    const counts = await this.counters.read([account, address]);
    const now = this.counters.clock();
    return Math.max(
      this.remaining(counts.get(account), this.limits.account, now),
      this.remaining(counts.get(address), this.limits.address, now),
    );
  }

  /** Throws RATE_LIMITED while either wait runs. */
  async check(ip: string, email: string): Promise<void> {
    const wait = await this.waitMs(ip, email);
    if (wait <= 0) return;
    const seconds = Math.ceil(wait / 1000);
    const when = seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
    throw new AppError("RATE_LIMITED", `Too many failed sign-in attempts. Try again in ${when}.`);
  }

  async fail(ip: string, email: string): Promise<void> {
    for (const key of [this.accountKey(email), this.addressKey(ip)]) {
      await this.counters.hit(key, this.limits.forgetMs, true);
    }
  }

  /** A correct sign-in clears that account's count (not the address's). */
  async succeed(_ip: string, email: string): Promise<void> {
    await this.counters.forget(this.accountKey(email));
  }

  private accountKey(email: string): string {
    return `${this.scope}|account|${email.toLowerCase()}`;
  }

  private addressKey(ip: string): string {
    return `${this.scope}|address|${ip}`;
  }

  private remaining(failures: Count | undefined, limit: Limit, now: number): number {
    if (!failures || failures.count < limit.free) return 0;
    // A sliding count expires forgetMs after its last failure.
    const lastAt = failures.expiresAt - this.limits.forgetMs;
    const wait = Math.min(limit.baseMs * 2 ** (failures.count - limit.free), limit.capMs);
    return Math.max(0, lastAt + wait - now);
  }
}
