const MAX_WAIT_MS = 3_600_000;

/** The wait before attempt n+1 after n failed attempts: base, 2 x base, 4 x base, ... at most an hour. */
export const retryDelayMs = (baseMs: number, failedAttempts: number) =>
  Math.min(MAX_WAIT_MS, baseMs * 2 ** Math.max(0, failedAttempts - 1));
