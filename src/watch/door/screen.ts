/**
 * What POST /watch checks before any payment is asked for or touched, once its body is valid:
 * the webhook may be contacted (https, public addresses only in mainnet mode: the SSRF guard),
 * and there is room for one more watch on the subject and in all. Both answer the unpaid request
 * too, so no one is offered a price for a watch that would be refused.
 */
import type { Screen } from '../../door/paid-door.js';
import type { WatchState } from '../model.js';
import { orderOfSubject } from './order.js';
import { WATCH_FULL_RETRY_AFTER_SECONDS, watchFullError, webhookRefusedError } from './refusals.js';

/** The SSRF guard of webhook URLs in the service's mode: ok, or why not. */
export type CheckWebhookUrl = (
  url: string,
) => Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;

export interface WatchScreenDeps {
  readonly state: WatchState;
  readonly checkWebhook: CheckWebhookUrl;
}

export function createWatchScreen(deps: WatchScreenDeps): Screen {
  return async (subject) => {
    const order = orderOfSubject(subject);
    const webhook = await deps.checkWebhook(order.webhook);
    if (!webhook.ok) return { error: webhookRefusedError(webhook.reason), retryAfterSeconds: null };
    const refusal = await deps.state.room(order.subject);
    if (refusal === null) return null;
    return { error: watchFullError(refusal), retryAfterSeconds: WATCH_FULL_RETRY_AFTER_SECONDS };
  };
}
