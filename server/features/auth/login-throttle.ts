import { AppError } from "../../../domain/errors";

type Window = { count: number; resetAt: number };

/**
 * Counts failed sign-ins (wrong password, wrong second factor) per address and e-mail, and per address
 * alone: a guess at one account and a spray across accounts are both stopped, while people who sign in
 * correctly many times are never slowed. Per process, like the rate-limit plugin's default store.
 */
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000, maxKeys: 50_000 }) {}

  /** Throws RATE_LIMITED when either limit is used up. */
  check(ip: string, email: string, now = Date.now()): void {
    const account = this.current(`a|${ip}|${email}`, now);
    const address = this.current(`i|${ip}`, now);
    if ((account?.count ?? 0) >= this.limits.perAccount || (address?.count ?? 0) >= this.limits.perAddress) {
      const resetAt = Math.max(account?.resetAt ?? 0, address?.resetAt ?? 0);
      const minutes = Math.max(1, Math.ceil((resetAt - now) / 60_000));
      throw new AppError("RATE_LIMITED", `Too many failed sign-in attempts. Try again in ${minutes} minutes.`);
    }
  }

  fail(ip: string, email: string, now = Date.now()): void {
    if (this.windows.size > this.limits.maxKeys) this.prune(now);
    for (const key of [`a|${ip}|${email}`, `i|${ip}`]) {
      const window = this.current(key, now) ?? { count: 0, resetAt: now + this.limits.windowMs };
      window.count++;
      this.windows.set(key, window);
    }
  }

  /** A correct sign-in clears that account's count (not the address's). */
  succeed(ip: string, email: string): void {
    this.windows.delete(`a|${ip}|${email}`);
  }

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
