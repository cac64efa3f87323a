/**
 * Dependency health checks. Checks that reach the network are cached briefly and coalesced,
 * so a flood of free /health probes cannot become a flood of RPC or facilitator calls.
 */

import { errorMessage } from './errors.js';

export interface CheckResult {
  readonly status: 'ok' | 'down';
  readonly detail?: string;
  readonly latency_ms?: number;
}

export type HealthCheck = () => Promise<CheckResult>;

/** Wraps a check so it runs at most once per `ttlMs`, with concurrent callers sharing one run. */
export function cachedCheck(check: HealthCheck, ttlMs: number, now: () => number = Date.now): HealthCheck {
  let last: { at: number; result: CheckResult } | null = null;
  let running: Promise<CheckResult> | null = null;
  return async () => {
    if (last !== null && now() - last.at < ttlMs) return last.result;
    running ??= check()
      .catch((e: unknown): CheckResult => ({ status: 'down', detail: errorMessage(e) }))
      .then((result) => {
        last = { at: now(), result };
        running = null;
        return result;
      });
    return running;
  };
}
