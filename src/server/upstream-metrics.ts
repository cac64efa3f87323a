/**
 * Metrics of the two upstreams that decide whether a paid call succeeds: the Solana RPC
 * endpoints and the x402 facilitators. They implement the observers the RPC client and the
 * facilitator calls own, on the service's registry.
 *
 * An upstream is labelled by host and 1-based position in its list, as on
 * `risk_scan_circuit_state` (never the path or query, which may hold an API key). The RPC
 * observer sits on every scan read, so each call costs one map lookup (its method), one counter
 * increment and one histogram observation, on children bound once (per method, on its first call).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { RPC_PRIORITIES, type RpcPriority } from '../solana/rate-shaper.js';
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

/** A URL as a metric label: its host only (paths and queries carry keys). */
export function endpointHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : 'unknown';
}

interface Inc {
  inc(value?: number): void;
}
interface Observe {
  observe(value: number): void;
}

/** Labels of each URL of a list: host and 1-based position. */
const endpointLabels = (urls: readonly string[]) =>
  urls.map((url, i) => ({ host: endpointHost(url), position: String(i + 1) }));

/** The children of one RPC method, bound once: per endpoint, a counter per outcome and a histogram. */
interface RpcMethodChildren {
  readonly calls: readonly Readonly<Record<RpcCallOutcome, Inc>>[];
  readonly durations: readonly Observe[];
  readonly retries: Inc;
}

const BREAKER_STATES: readonly CircuitName[] = ['open', 'half_open', 'closed'];

interface Settable {
  set(value: number): void;
}

/** Per endpoint and priority: the requests waiting for their turn under the rate limit, and each one's wait. */
function createRpcQueueMetrics(registry: Registry, endpoints: readonly { host: string; position: string }[]) {
  const queued = new Gauge({
    name: 'risk_scan_rpc_queued_requests',
    help: "Requests waiting for their turn under an RPC endpoint's stated rate limit (RPC_RATE_LIMIT), by priority (paid scans before watch re-scans)",
    labelNames: ['host', 'position', 'priority'] as const,
    registers: [registry],
  });
  const waits = new Histogram({
    name: 'risk_scan_rpc_queue_wait_seconds',
    help: "Time a request waited for its turn under an RPC endpoint's stated rate limit before it was sent (0 when it had not to), by priority",
    labelNames: ['host', 'position', 'priority'] as const,
    buckets: [0, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const children = endpoints.map(({ host, position }) => {
    const row = {} as Record<RpcPriority, { queued: Settable; wait: Observe }>;
    for (const priority of RPC_PRIORITIES) {
      const gauge = queued.labels(host, position, priority);
      gauge.set(0);
      row[priority] = { queued: gauge, wait: waits.labels(host, position, priority) };
    }
    return row;
  });
  return {
    queued: (endpoint: number, priority: RpcPriority, depth: number) =>
      children[endpoint]?.[priority].queued.set(depth),
    waited: (endpoint: number, priority: RpcPriority, seconds: number) =>
      children[endpoint]?.[priority].wait.observe(seconds),
  };
}

/** The RPC client's observer, counting on `registry`; `urls` in SOLANA_RPC_URL(S) order. */
export function createRpcMetrics(registry: Registry, urls: readonly string[]): RpcObserver {
  const endpoints = endpointLabels(urls);
  const calls = new Counter({
    name: 'risk_scan_rpc_calls_total',
    help: 'Requests sent to each RPC endpoint, by JSON-RPC method and outcome (ok, rpc_error, 429, error, timeout, mixed_up, abandoned)',
    labelNames: ['method', 'host', 'position', 'outcome'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'risk_scan_rpc_call_duration_seconds',
    help: 'Time from sending a request to an RPC endpoint to its answer or failure (abandoned requests excluded), by method',
    labelNames: ['method', 'host', 'position'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const retries = new Counter({
    name: 'risk_scan_rpc_retries_total',
    help: 'Reads asked again after every endpoint failed transiently (429, 5xx, dropped connection, timeout within a scan), by method',
    labelNames: ['method'] as const,
    registers: [registry],
  });
  const transitions = new Counter({
    name: 'risk_scan_rpc_breaker_transitions_total',
    help: "Changes of an RPC endpoint's circuit breaker, by the state it went to",
    labelNames: ['host', 'position', 'state'] as const,
    registers: [registry],
  });
  const transitionChildren = endpoints.map(
    ({ host, position }) =>
      Object.fromEntries(
        BREAKER_STATES.map((state) => {
          const child = transitions.labels(host, position, state);
          child.inc(0);
          return [state, child];
        }),
      ) as Record<CircuitName, Inc>,
  );
  const byMethod = new Map<string, RpcMethodChildren>();
  const bind = (method: string): RpcMethodChildren => {
    const children: RpcMethodChildren = {
      calls: endpoints.map(({ host, position }) => {
        const row = {} as Record<RpcCallOutcome, Inc>;
        for (const outcome of RPC_CALL_OUTCOMES) {
          row[outcome] = calls.labels(method, host, position, outcome);
          row[outcome].inc(0);
        }
        return row;
      }),
      durations: endpoints.map(({ host, position }) => durations.labels(method, host, position)),
      retries: retries.labels(method),
    };
    children.retries.inc(0);
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
    breakerChanged: (endpoint, state) => transitionChildren[endpoint]?.[state].inc(),
    ...createRpcQueueMetrics(registry, endpoints),
  };
}

/** The facilitator calls' observer, counting on `registry`; `urls` in FACILITATOR_URLS order. */
export function createFacilitatorMetrics(registry: Registry, urls: readonly string[]): FacilitatorObserver {
  const calls = new Counter({
    name: 'risk_scan_facilitator_calls_total',
    help: 'Calls to each x402 facilitator, by operation (verify, settle, supported) and outcome (ok, refused, timeout, unreachable, http_error, garbage)',
    labelNames: ['operation', 'host', 'position', 'outcome'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'risk_scan_facilitator_call_duration_seconds',
    help: 'Time from sending a call to an x402 facilitator to its answer or failure, by operation',
    labelNames: ['operation', 'host', 'position'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  type Row = Record<FacilitatorOperation, { calls: Record<FacilitatorCallOutcome, Inc>; duration: Observe }>;
  const bind = (host: string, position: string): Row => {
    const row = {} as Row;
    for (const operation of FACILITATOR_OPERATIONS) {
      const counted = {} as Record<FacilitatorCallOutcome, Inc>;
      for (const outcome of FACILITATOR_CALL_OUTCOMES) {
        const child = calls.labels(operation, host, position, outcome);
        child.inc(0);
        counted[outcome] = child;
      }
      row[operation] = { calls: counted, duration: durations.labels(operation, host, position) };
    }
    return row;
  };
  const byUrl = new Map(
    endpointLabels(urls).map(({ host, position }, i) => [urls[i]!, bind(host, position)]),
  );
  return {
    call: (url, operation, outcome, seconds) => {
      // A URL outside the list (never, from the service) still counts, at position 0.
      let row = byUrl.get(url);
      if (row === undefined) {
        row = bind(endpointHost(url), '0');
        byUrl.set(url, row);
      }
      row[operation].calls[outcome].inc();
      row[operation].duration.observe(seconds);
    },
  };
}
