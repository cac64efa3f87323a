/**
 * What POST /watch checks before any payment is asked for or touched, once its body is valid:
 * the webhook may be contacted (https, public addresses only in mainnet mode: the SSRF guard),
 * and there is room for one more watch on the subject and in all. Both answer the unpaid request
 * too, so no one is offered a price for a watch that would be refused.
 *
 * An offer is free to ask for and a webhook check may wait on DNS, so the checks are bounded in
 * number and in time: a flood of orders naming slow hosts gets 503s, not a queue of lookups.
 */

import { orderOfSubject } from '../../contract/watch-order.js';
import type { Screen, ScreenRefusal } from '../../door/paid-door.js';
import { reasonError } from '../../errors.js';
import { reason } from '../../reasons.js';
import type { WatchState } from '../model.js';
import { WATCH_FULL_RETRY_AFTER_SECONDS, watchFullError, webhookRefusedError } from './refusals.js';

/** The SSRF guard of webhook URLs in the service's mode: ok, or why not. */
export type CheckWebhookUrl = (
  url: string,
) => Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;

export interface WatchScreenDeps {
  readonly state: WatchState;
  readonly checkWebhook: CheckWebhookUrl;
  /** Checks running at once beyond which an order is refused (503) rather than queued. */
  readonly maxConcurrentChecks?: number;
  /** How long a webhook check (its DNS) may take before the order is refused (503). */
  readonly checkTimeoutMs?: number;
}

export const DEFAULT_MAX_CONCURRENT_CHECKS = 32;
export const DEFAULT_CHECK_TIMEOUT_MS = 5_000;

const busy = (seconds: number, code: 'webhook_check_timeout' | 'busy'): ScreenRefusal => ({
  error: reasonError(reason(code, { seconds })),
  retryAfterSeconds: seconds,
});

/** The check's answer, or null when it took longer than `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createWatchScreen(deps: WatchScreenDeps): Screen {
  const maxChecks = deps.maxConcurrentChecks ?? DEFAULT_MAX_CONCURRENT_CHECKS;
  const timeoutMs = deps.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  let running = 0;
  const screenOrder = async (subject: string): Promise<ScreenRefusal | null> => {
    const order = orderOfSubject(subject);
    // The slot is held until the check itself ends, not its answer: a lookup past its time
    // still takes a resolver thread.
    running++;
    const check = deps.checkWebhook(order.webhook).finally(() => {
      running--;
    });
    const webhook = await within(timeoutMs, check);
    if (webhook === null) {
      const seconds = Math.ceil(timeoutMs / 1000);
      return busy(seconds, 'webhook_check_timeout');
    }
    if (!webhook.ok) return { error: webhookRefusedError(webhook.reason), retryAfterSeconds: null };
    const refusal = await deps.state.room(order.subject);
    if (refusal === null) return null;
    return { error: watchFullError(refusal), retryAfterSeconds: WATCH_FULL_RETRY_AFTER_SECONDS };
  };
  return async (subject) => {
    if (running >= maxChecks) {
      return busy(1, 'busy');
    }
    return screenOrder(subject);
  };
}
