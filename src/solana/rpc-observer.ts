/**
 * What the RPC client tells whoever watches it (the service's metrics): each request sent to an
 * endpoint with its outcome and duration, each retry round, each breaker change, and under a
 * stated rate limit how many requests wait for their turn and how long each waited. Owned here so
 * the RPC client depends on no metrics library; endpoints are named by their 0-based place in
 * the configured URLs, never by URL (a path or query may carry an API key).
 */

import type { RpcPriority } from './rate-shaper.js';

/** A breaker's state, as the metrics show it. */
export type CircuitName = 'closed' | 'open' | 'half_open';

/**
 * How one request to one endpoint ended:
 * - `ok`: answered with a result;
 * - `rpc_error`: answered with a JSON-RPC error object (the endpoint is up; it refused this call);
 * - `429`: HTTP 429, asked to slow down;
 * - `error`: another HTTP error status, a dropped or refused connection, an unreadable answer;
 * - `timeout`: no whole answer within RPC_TIMEOUT_MS;
 * - `mixed_up`: an answer carrying another request's JSON-RPC id;
 * - `abandoned`: the caller (a scan past its deadline) gave up first, which says nothing of the endpoint.
 */
export type RpcCallOutcome = 'ok' | 'rpc_error' | '429' | 'error' | 'timeout' | 'mixed_up' | 'abandoned';

export const RPC_CALL_OUTCOMES: readonly RpcCallOutcome[] = [
  'ok',
  'rpc_error',
  '429',
  'error',
  'timeout',
  'mixed_up',
  'abandoned',
];

export interface RpcObserver {
  /** One request to endpoint `endpoint` (0-based) ended after `seconds`. */
  call(endpoint: number, method: string, outcome: RpcCallOutcome, seconds: number): void;
  /** A read is asked again: every endpoint failed in the round before, transiently. */
  retry(method: string): void;
  /** The breaker of endpoint `endpoint` (0-based) went to `state`. */
  breakerChanged(endpoint: number, state: CircuitName): void;
  /** Under endpoint `endpoint`'s rate limit, `depth` requests of `priority` now wait for their turn. */
  queued?(endpoint: number, priority: RpcPriority, depth: number): void;
  /** A request of `priority` got its turn at endpoint `endpoint` after waiting `seconds` (0: none). */
  waited?(endpoint: number, priority: RpcPriority, seconds: number): void;
}
