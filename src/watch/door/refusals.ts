/** What a payer is told when a watch cannot be taken, before any payment is touched. */
import { ServiceError } from '../../errors.js';
import type { WatchRefusal } from '../model.js';

/**
 * How long a payer refused for want of room is told to wait: watches free up only as they
 * expire or are cancelled, which takes minutes to hours, not seconds.
 */
export const WATCH_FULL_RETRY_AFTER_SECONDS = 600;

const FULL: Readonly<Record<WatchRefusal, string>> = {
  subject_full: 'This subject has as many active watches as the service takes on one subject',
  service_full: 'The service is following as many watches as it can',
};

/** 503 with the reason: nothing was charged, and the same order may be paid later. */
export function watchFullError(refusal: WatchRefusal): ServiceError {
  return new ServiceError(
    'service_unavailable',
    `${FULL[refusal]}; nothing was charged. Try again after ${WATCH_FULL_RETRY_AFTER_SECONDS} s, as watches expire or are cancelled.`,
    { reason: refusal },
  );
}

/** 400: the webhook may not be contacted (the SSRF guard's reason). */
export function webhookRefusedError(reason: string): ServiceError {
  return new ServiceError('invalid_input', `${reason}; nothing was charged`, { parameter: 'webhook' });
}
