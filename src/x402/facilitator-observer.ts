/**
 * What the facilitator calls tell whoever watches them (the service's metrics): each verify,
 * settle and supported call with its facilitator, outcome and duration. Owned here so payments
 * depend on no metrics library. A facilitator is named by its configured URL; the watcher
 * decides what of it to show (never a path or query).
 */
export type FacilitatorOperation = 'verify' | 'settle' | 'supported';

/**
 * How one call ended:
 * - `ok`: a valid answer that says yes (verify: valid; settle: success; supported: an x402 list);
 * - `refused`: a valid answer that says no (verify: invalid; settle: not successful, e.g. pending);
 * - `timeout`: no whole answer within FACILITATOR_TIMEOUT_MS (SETTLE_TIMEOUT_MS for settle);
 * - `unreachable`: no connection, or it dropped before an answer;
 * - `http_error`: an HTTP error status without an x402 answer;
 * - `garbage`: a 2xx whose body is not the x402 answer asked for.
 */
export type FacilitatorCallOutcome = 'ok' | 'refused' | 'timeout' | 'unreachable' | 'http_error' | 'garbage';

export const FACILITATOR_OPERATIONS: readonly FacilitatorOperation[] = ['verify', 'settle', 'supported'];
export const FACILITATOR_CALL_OUTCOMES: readonly FacilitatorCallOutcome[] = [
  'ok',
  'refused',
  'timeout',
  'unreachable',
  'http_error',
  'garbage',
];

export interface FacilitatorObserver {
  /** One call to the facilitator configured as `url` ended after `seconds`. */
  call(url: string, operation: FacilitatorOperation, outcome: FacilitatorCallOutcome, seconds: number): void;
}
