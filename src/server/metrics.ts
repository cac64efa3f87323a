/**
 * Metrics for operators, in Prometheus text format on a listener of their own (METRICS_PORT).
 * One registry per service, passed to whatever counts (never a global), so several services in
 * one process (tests) each count their own.
 *
 * The unpaid lane, most of the traffic, costs one increment of a plain number, added to the
 * request counter when it is scraped: no label hashing and no duration histogram
 * (docs/performance.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DoorMetrics } from '../door/metrics.js';
import type { ScanMetrics } from '../scans/service.js';

/** An increment bound to its labels once. */
export interface BoundCounter {
  inc(): void;
}

/**
 * A count kept as a plain number and handed to its counter at each scrape. prom-client's bound
 * child hashes and checks its labels on every increment (about 0.2 µs), which the unpaid lane
 * would pay on every request.
 */
class Tally implements BoundCounter {
  pending = 0;
  constructor(readonly labels: { readonly route: string; readonly status: string }) {}
  inc(): void {
    this.pending++;
  }
}

/** The operator's metrics: what the paid door and the scans count, and what the server counts. */
export interface Metrics extends DoorMetrics, ScanMetrics {
  readonly registry: Registry;
  /** A request answered: counted by route template and status, its duration observed. */
  request(route: string | null, status: number, seconds: number): void;
  /** The counter of one route and status, bound once (the unpaid lane's only cost). */
  requestCounter(route: string, status: number): BoundCounter;
  /** Where circuit states are read at each scrape. */
  watchCircuits(read: () => readonly CircuitReading[]): void;
  /** Where the event-loop delay the shedder acts on is read at each scrape (seconds). */
  watchEventLoopDelay(read: () => number): void;
  /** Where the number of paid calls in flight and unwritten payment records are read at each scrape. */
  watchPaidCalls(read: () => { inflight: number; unrecorded: number }): void;
  /** The text a scrape receives. */
  scrape(): Promise<string>;
}

/** One circuit's state: an RPC endpoint's breaker, or a facilitator's health. */
export interface CircuitReading {
  readonly kind: 'rpc' | 'facilitator';
  /** Only the host: a URL's path or query may carry an API key. */
  readonly host: string;
  /** 1-based place in SOLANA_RPC_URLS or FACILITATOR_URLS (two URLs may share a host). */
  readonly position: number;
  readonly state: 'closed' | 'open' | 'half_open';
}

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Routes matched by no handler (404s, refusals before routing) share one label value. */
const UNMATCHED = 'unmatched';

/** Requests answered and their durations; lane tallies are added to the counter at each scrape. */
function httpMetrics(registry: Registry, tallies: readonly Tally[]) {
  const requests = new Counter({
    name: 'risk_scan_http_requests_total',
    help: 'HTTP requests answered, by route template and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
    collect() {
      for (const tally of tallies) {
        if (tally.pending === 0) continue;
        this.inc(tally.labels, tally.pending);
        tally.pending = 0;
      }
    },
  });
  const durations = new Histogram({
    name: 'risk_scan_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (not observed for the unpaid lane’s 402 offers)',
    labelNames: ['route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return { requests, durations };
}

/** Payments by outcome and the revenue of fresh sales, every outcome shown from the start. */
function moneyMetrics(registry: Registry) {
  const payments = new Counter({
    name: 'risk_scan_payments_total',
    help: 'Payments by outcome: verified by a facilitator, settled (fresh sale delivered), replayed (a paid result delivered again), refused, pending, failed',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const revenue = new Counter({
    name: 'risk_scan_revenue_usdc_atomic_total',
    help: 'USDC earned, in atomic units (1e-6 USDC), by endpoint; fresh settlements only',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });
  for (const outcome of ['verified', 'settled', 'replayed', 'refused', 'pending', 'failed'])
    payments.inc({ outcome }, 0);
  return { payments, revenue };
}

/** Cache lookups, single-flight joins and scan durations. */
function scanMetrics(registry: Registry) {
  const cache = new Counter({
    name: 'risk_scan_cache_lookups_total',
    help: 'Result cache lookups by result (hit or miss)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const joins = new Counter({
    name: 'risk_scan_singleflight_joins_total',
    help: 'Scans that waited for an identical scan already running instead of running their own',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });
  const scans = new Histogram({
    name: 'risk_scan_scan_duration_seconds',
    help: 'Time a scan took, by endpoint and outcome',
    labelNames: ['endpoint', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60],
    registers: [registry],
  });
  for (const result of ['hit', 'miss']) cache.inc({ result }, 0);
  return { cache, joins, scans };
}

function shedMetric(registry: Registry) {
  const shed = new Counter({
    name: 'risk_scan_shed_requests_total',
    help: 'Paid calls refused with 503 before their payment was touched: too many in flight, event loop too slow, shutting down',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of ['inflight', 'event_loop', 'shutting_down']) shed.inc({ reason }, 0);
  return shed;
}

/** What the gauges read at each scrape; the service hands the readers over once it has the parts. */
interface GaugeReaders {
  circuits: () => readonly CircuitReading[];
  delay: () => number;
  paid: () => { inflight: number; unrecorded: number };
}

function readGauges(registry: Registry): GaugeReaders {
  const read: GaugeReaders = {
    circuits: () => [],
    delay: () => 0,
    paid: () => ({ inflight: 0, unrecorded: 0 }),
  };
  new Gauge({
    name: 'risk_scan_circuit_state',
    help: 'Circuit state per RPC endpoint (breaker) and facilitator (health): 0 closed, 1 open, 2 half-open',
    labelNames: ['kind', 'host', 'position'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of read.circuits()) {
        const value = c.state === 'closed' ? 0 : c.state === 'open' ? 1 : 2;
        this.set({ kind: c.kind, host: c.host, position: String(c.position) }, value);
      }
    },
  });
  new Gauge({
    name: 'risk_scan_event_loop_delay_seconds',
    help: 'Event-loop delay the load shedder acts on (p99 over its last window)',
    registers: [registry],
    collect() {
      this.set(read.delay());
    },
  });
  new Gauge({
    name: 'risk_scan_paid_calls_inflight',
    help: 'Paid calls being processed (claimed or about to be)',
    registers: [registry],
    collect() {
      this.set(read.paid().inflight);
    },
  });
  new Gauge({
    name: 'risk_scan_payment_records_unwritten',
    help: 'Settled sales whose record the payment store has not taken yet (retried in the background)',
    registers: [registry],
    collect() {
      this.set(read.paid().unrecorded);
    },
  });
  return read;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const tallies: Tally[] = [];
  collectDefaultMetrics({ register: registry, prefix: 'risk_scan_' });
  const { requests, durations } = httpMetrics(registry, tallies);
  const { payments, revenue } = moneyMetrics(registry);
  const { cache, joins, scans } = scanMetrics(registry);
  const shed = shedMetric(registry);
  const read = readGauges(registry);
  return {
    registry,
    request: (route, status, seconds) => {
      const labels = { route: route ?? UNMATCHED, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    requestCounter: (route, status) => {
      const tally = new Tally({ route, status: String(status) });
      tallies.push(tally);
      return tally;
    },
    payment: (outcome) => payments.inc({ outcome }),
    revenue: (endpoint, atomic) => revenue.inc({ endpoint }, atomic),
    cache: (result) => cache.inc({ result }),
    flightJoined: (endpoint) => joins.inc({ endpoint }),
    scanDuration: (endpoint, seconds, outcome) => scans.observe({ endpoint, outcome }, seconds),
    shed: (reason) => shed.inc({ reason }),
    watchCircuits: (reader) => {
      read.circuits = reader;
    },
    watchEventLoopDelay: (reader) => {
      read.delay = reader;
    },
    watchPaidCalls: (reader) => {
      read.paid = reader;
    },
    scrape: () => registry.metrics(),
  };
}

/** Serves GET /metrics (and nothing else) for `metrics` on its own port. */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.scrape().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
