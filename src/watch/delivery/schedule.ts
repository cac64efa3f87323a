/** When a failed delivery is tried again: exponential backoff, bounded; injected in tests. */

/** The wait after `failedAttempts` failed attempts (1 after the first), in ms. */
export type RetrySchedule = (failedAttempts: number) => number;

export interface BackoffOptions {
  readonly firstMs?: number;
  readonly maxMs?: number;
}

/** 5 s, 10 s, 20 s, … doubling up to one hour between attempts. */
export function exponentialBackoff(options: BackoffOptions = {}): RetrySchedule {
  const first = options.firstMs ?? 5_000;
  const max = options.maxMs ?? 3_600_000;
  return (failedAttempts) => Math.min(max, first * 2 ** Math.max(0, Math.min(failedAttempts - 1, 30)));
}
