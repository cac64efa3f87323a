/** The bound on optional program-wide searches (getProgramAccounts; OPTIONAL_SEARCH_MS), apart from the scan's deadline. */
import { setMaxListeners } from 'node:events';
import { anySignal, queueAwareTimeout } from '../../deadline.js';
import { errorMessage } from '../../errors.js';

/** A send bounded by `ms` as well as by the scan's signal, and the message of an error it ends with. */
export function boundedSend(signal: AbortSignal | undefined, ms: number) {
  // Time its reads spend queued (behind a rate limit, in a batch's step) is not taken from the bound.
  const bound = queueAwareTimeout(ms);
  const send = { abortSignal: signal ? anySignal([signal, bound]) : bound };
  // Every call it bounds listens on it (pump.fun's creator history sends two dozen at once).
  setMaxListeners(100, send.abortSignal);
  const why = (e: unknown) =>
    bound.aborted && !signal?.aborted ? `no answer within ${ms} ms` : errorMessage(e);
  return { send, why };
}
