/** What a payer is told when a watch cannot be taken, before any payment is touched. */
import { reasonError, type ServiceError } from '../../errors.js';
import { reason as reasonOf } from '../../reasons.js';
import type { WatchRefusal } from '../model.js';

/**
 * How long a payer refused for want of room is told to wait: watches free up only as they
 * expire or are cancelled, which takes minutes to hours, not seconds.
 */
export const WATCH_FULL_RETRY_AFTER_SECONDS = 600;

/** 503 with the reason: nothing was charged, and the same order may be paid later. */
export function watchFullError(refusal: WatchRefusal): ServiceError {
  // Each refusal is a code of its own in the reasons table, named as the body's `reason`.
  return reasonError(reasonOf(refusal, { seconds: WATCH_FULL_RETRY_AFTER_SECONDS }));
}

/** 400: the webhook may not be contacted (the SSRF guard's reason). */
export function webhookRefusedError(reason: string): ServiceError {
  return reasonError(reasonOf('webhook_refused', { problem: reason }), { parameter: 'webhook' });
}
