/**
 * Metrics of the two upstreams that decide whether a paid call succeeds: the Solana RPC
 * endpoints and the x402 facilitators. They implement the observers the RPC client and the
 * facilitator calls own, on the service's registry.
 *
 * An upstream is labelled by host and 1-based position in its list, as on
 * `risk_scan_circuit_state` (never the path or query, which may hold an API key). The RPC
 * observer sits on every scan read, so each call costs one map lookup (its method), one counter
 * increment and one histogram observation, each a field update on series bound once (per method,
 * on its first call; see tallies.ts).
 */
import type { Registry } from 'prom-client';
import {
  type CircuitName,
  RPC_CALL_OUTCOMES,
  type RpcCallOutcome,
  type RpcObserver,
} from '../solana/rpc-observer.js';
import {
  FACILITATOR_CALL_OUTCOMES,
  FACILITATOR_OPERATIONS,
  type FacilitatorCallOutcome,
  type FacilitatorObserver,
  type FacilitatorOperation,
} from '../x402/facilitator-observer.js';
import { type Tally, type Timing, tallyCounter, tallyHistogram } from './tallies.js';

/** A URL as a metric label: its host only (paths and queries carry keys). */
export function endpointHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : 'unknown';
}

/** Labels of each URL of a list: host and 1-based position. */
const endpointLabels = (urls: readonly string[]) =>
  urls.map((url, i) => ({ host: endpointHost(url), position: String(i + 1) }));

/** The children of one RPC method, bound once: per endpoint, a counter per outcome and a histogram. */
interface RpcMethodChildren {
  readonly calls: readonly Readonly<Record<RpcCallOutcome, Tally>>[];
  readonly durations: readonly Timing[];
  readonly retries: Tally;
}

const BREAKER_STATES: readonly CircuitName[] = ['open', 'half_open', 'closed'];

/** One tally per key, each bound with its key as the label `label`. */
function tallyPer<K extends string>(
  keys: readonly K[],
  label: string,
  bind: (labels: Readonly<Record<string, string>>) => Tally,
  labels: Readonly<Record<string, string>>,
): Record<K, Tally> {
  return Object.fromEntries(keys.map((key) => [key, bind({ ...labels, [label]: key })])) as Record<K, Tally>;
}

/** The RPC client's observer, counting on `registry`; `urls` in SOLANA_RPC_URL(S) order. */
export function createRpcMetrics(registry: Registry, urls: readonly string[]): RpcObserver {
  const endpoints = endpointLabels(urls);
  const calls = tallyCounter(registry, {
    name: 'risk_scan_rpc_calls_total',
    help: 'Requests sent to each RPC endpoint, by JSON-RPC method and outcome (ok, rpc_error, 429, error, timeout, mixed_up, abandoned)',
  });
  const durations = tallyHistogram(registry, {
    name: 'risk_scan_rpc_call_duration_seconds',
    help: 'Time from sending a request to an RPC endpoint to its answer or failure (abandoned requests excluded), by method',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  const retries = tallyCounter(registry, {
    name: 'risk_scan_rpc_retries_total',
    help: 'Reads asked again after every endpoint failed transiently (429, 5xx, dropped connection, timeout within a scan), by method',
  });
  const transitions = tallyCounter(registry, {
    name: 'risk_scan_rpc_breaker_transitions_total',
    help: "Changes of an RPC endpoint's circuit breaker, by the state it went to",
  });
  const breakerTallies = endpoints.map((endpoint) =>
    tallyPer(BREAKER_STATES, 'state', transitions, endpoint),
  );
  const byMethod = new Map<string, RpcMethodChildren>();
  const bind = (method: string): RpcMethodChildren => {
    const children: RpcMethodChildren = {
      calls: endpoints.map((endpoint) =>
        tallyPer(RPC_CALL_OUTCOMES, 'outcome', calls, { method, ...endpoint }),
      ),
      durations: endpoints.map((endpoint) => durations({ method, ...endpoint })),
      retries: retries({ method }),
    };
    byMethod.set(method, children);
    return children;
  };
  return {
    call: (endpoint, method, outcome, seconds) => {
      const children = byMethod.get(method) ?? bind(method);
      children.calls[endpoint]?.[outcome].inc();
      if (outcome !== 'abandoned') children.durations[endpoint]?.observe(seconds);
    },
    retry: (method) => (byMethod.get(method) ?? bind(method)).retries.inc(),
    breakerChanged: (endpoint, state) => breakerTallies[endpoint]?.[state].inc(),
  };
}

type FacilitatorRow = Record<
  FacilitatorOperation,
  { readonly calls: Record<FacilitatorCallOutcome, Tally>; readonly duration: Timing }
>;

/** The facilitator calls' observer, counting on `registry`; `urls` in FACILITATOR_URLS order. */
export function createFacilitatorMetrics(registry: Registry, urls: readonly string[]): FacilitatorObserver {
  const calls = tallyCounter(registry, {
    name: 'risk_scan_facilitator_calls_total',
    help: 'Calls to each x402 facilitator, by operation (verify, settle, supported) and outcome (ok, refused, timeout, unreachable, http_error, garbage)',
  });
  const durations = tallyHistogram(registry, {
    name: 'risk_scan_facilitator_call_duration_seconds',
    help: 'Time from sending a call to an x402 facilitator to its answer or failure, by operation',
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  });
  const bind = (endpoint: { host: string; position: string }): FacilitatorRow =>
    Object.fromEntries(
      FACILITATOR_OPERATIONS.map((operation) => [
        operation,
        {
          calls: tallyPer(FACILITATOR_CALL_OUTCOMES, 'outcome', calls, { operation, ...endpoint }),
          duration: durations({ operation, ...endpoint }),
        },
      ]),
    ) as FacilitatorRow;
  const byUrl = new Map(endpointLabels(urls).map((endpoint, i) => [urls[i]!, bind(endpoint)]));
  return {
    call: (url, operation, outcome, seconds) => {
      // A URL outside the list (never, from the service) still counts, at position 0.
      let row = byUrl.get(url);
      if (row === undefined) {
        row = bind({ host: endpointHost(url), position: '0' });
        byUrl.set(url, row);
      }
      row[operation].calls[outcome].inc();
      row[operation].duration.observe(seconds);
    },
  };
}
