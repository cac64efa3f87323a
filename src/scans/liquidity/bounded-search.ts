/** The bound on optional program-wide searches (getProgramAccounts), apart from the scan's deadline. */
import { setMaxListeners } from 'node:events';
import { errorMessage } from '../../errors.js';

/**
 * How long an optional program-wide search (the AMM v4 pool search, the positions listing) may
 * take. The scan's own deadline is SCAN_TIMEOUT_MS (20 s by default); a search still running then
 * would hold the round's Promise.all past it and fail the whole scan. 4 s is several times what a
 * filtered getProgramAccounts takes on a healthy provider, and leaves the rounds that follow it (an
 * AMM v4 pool's vault and LP holders, then their owners; the positions' two owner rounds) time to
 * finish well inside the deadline: a slower search ends as a refusal (unknown, lower confidence).
 */
export const OPTIONAL_SEARCH_MS = 4_000;

/** A send bounded by `ms` as well as by the scan's signal, and the message of an error it ends with. */
export function boundedSend(signal: AbortSignal | undefined, ms: number) {
  const bound = AbortSignal.timeout(ms);
  const send = { abortSignal: signal ? AbortSignal.any([signal, bound]) : bound };
  // Every call it bounds listens on it (pump.fun's creator history sends two dozen at once).
  setMaxListeners(100, send.abortSignal);
  const why = (e: unknown) =>
    bound.aborted && !signal?.aborted ? `no answer within ${ms} ms` : errorMessage(e);
  return { send, why };
}
