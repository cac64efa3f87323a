/**
 * Runs scans for the paid calls: picks the endpoint's scanner, serves fresh cached results
 * (spec §8), and coalesces identical concurrent scans into one (single flight), within this
 * process by default or across instances with other ScanFlights (src/state/cache/redis-flights.ts).
 */
import { performance } from 'node:perf_hooks';
import type { RpcTransport } from '@solana/kit';
import { type EndpointId, PAID_ENDPOINTS, type ScanId } from '../catalog.js';
import type { ScanResult } from '../contract/schemas.js';
import type { RpcServes } from '../solana/program-search.js';
import { inScanOrder } from '../solana/rate-shaper.js';
import type { SolanaRpc } from '../solana/rpc.js';
import { runBatch } from './batch/run-batch.js';
import type { CacheStore } from './cache-store.js';
import { createLocalFlights, type ScanFlights } from './flights.js';
import { BatchScanFailedError, ScanFailedError, type Scanner, scanDeadline } from './scanner.js';

/** What the scans count, for the operator's metrics (which implement it). */
export interface ScanMetrics {
  cache(result: 'hit' | 'miss'): void;
  /** A scan that waited for an identical one already running (here or on another instance). */
  flightJoined(endpoint: EndpointId): void;
  scanDuration(endpoint: EndpointId, seconds: number, outcome: 'ok' | 'failed'): void;
}

export interface ScanRun {
  readonly result: ScanResult;
  /** When the result was produced, if it came from the cache. */
  readonly cachedAt: string | null;
}

export interface ScanServiceOptions {
  /** The scanner of each endpoint this build can serve. */
  readonly scanners: Readonly<Partial<Record<EndpointId, Scanner>>>;
  readonly rpc: SolanaRpc;
  readonly cache: CacheStore;
  readonly now?: () => number;
  /** Longest a scan may take before it counts as failed. */
  readonly timeoutMs: number;
  /** How identical concurrent runs share one scan; within this process when absent. */
  readonly flights?: ScanFlights;
  /** Where cache hits and misses, single-flight joins and scan durations are counted. */
  readonly metrics?: ScanMetrics;
  /** What the RPC was probed to serve (src/solana/program-search.ts); scans rely on nothing more without it. */
  readonly serves?: () => Promise<RpcServes | undefined>;
  /** The transport under `rpc`: a batch merges its scans' reads over it (src/scans/batch/); absent, it runs each as `run`. */
  readonly transport?: RpcTransport;
  /** Calls a batch has in flight at most: for an RPC that answers one at a time (the sandbox's); none by default. */
  readonly batchReadsInFlight?: number;
}

interface CachedEntry {
  readonly result: ScanResult;
  readonly producedAt: string;
}

export class ScanService {
  private readonly flights: ScanFlights;
  private readonly ttl = new Map<EndpointId, number>(PAID_ENDPOINTS.map((e) => [e.id, e.cacheTtlSeconds]));

  constructor(private readonly options: ScanServiceOptions) {
    this.flights = options.flights ?? createLocalFlights();
  }

  /** Whether this endpoint has a scanner; payments for one without are refused, never taken. */
  canScan(endpoint: EndpointId): boolean {
    return this.options.scanners[endpoint] !== undefined;
  }

  /** The scan of `subject`; a cached result only if at most `maxAgeMs` old (a watch's baseline). */
  async run(endpoint: EndpointId, subject: string, maxAgeMs = Number.POSITIVE_INFINITY): Promise<ScanRun> {
    return this.runOn(endpoint, subject, maxAgeMs, this.options.rpc);
  }

  /**
   * The scans of distinct `subjects` of one endpoint, answered in their order, each what `run`
   * gives (served from and filling the cache, single flight per subject), their reads merged
   * (src/scans/batch/). All run at once, so a batch takes one scan's deadline. Rejects, naming
   * every subject that failed, if any did.
   */
  async runBatch(endpoint: ScanId, subjects: readonly string[]): Promise<ScanRun[]> {
    const { transport, batchReadsInFlight } = this.options;
    const settled = await runBatch(
      {
        ...(transport ? { transport } : {}),
        ...(batchReadsInFlight === undefined ? {} : { maxInFlight: batchReadsInFlight }),
        runOne: (subject, rpc = this.options.rpc) =>
          this.runOn(endpoint, subject, Number.POSITIVE_INFINITY, rpc),
      },
      subjects,
    );
    const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [i] : []));
    if (failed.length > 0) {
      const causes = failed.map((i) => (settled[i] as PromiseRejectedResult).reason);
      throw new BatchScanFailedError(
        failed.map((i) => subjects[i]!),
        { cause: new AggregateError(causes) },
      );
    }
    return settled.map((s) => (s as PromiseFulfilledResult<ScanRun>).value);
  }

  private async runOn(
    endpoint: EndpointId,
    subject: string,
    maxAgeMs: number,
    rpc: SolanaRpc,
  ): Promise<ScanRun> {
    const key = `scan:${endpoint}:${subject}`;
    // Hits skip the flight, whose coordination may cost Redis round trips. The work reads again:
    // a run it waited behind, here or on another instance, may have cached the value meanwhile.
    const metrics = this.options.metrics;
    const hit = await this.cached(key, maxAgeMs);
    metrics?.cache(hit === undefined ? 'miss' : 'hit');
    if (hit !== undefined) return hit;
    let ranHere = false;
    const work = async () => {
      ranHere = true;
      return JSON.stringify(
        (await this.cached(key, maxAgeMs)) ?? (await this.scan(key, endpoint, subject, rpc)),
      );
    };
    const shared = await this.flights.run(key, this.options.timeoutMs, work);
    // The work ran elsewhere: this run waited for an identical scan (here or on another instance).
    if (!ranHere) metrics?.flightJoined(endpoint);
    return JSON.parse(shared) as ScanRun;
  }

  private async cached(key: string, maxAgeMs: number): Promise<ScanRun | undefined> {
    const hit = await this.options.cache.get(key).catch(() => undefined);
    if (hit === undefined) return undefined;
    const entry = JSON.parse(hit) as CachedEntry;
    const now = this.options.now ?? Date.now;
    if (now() - Date.parse(entry.producedAt) > maxAgeMs) return undefined;
    return { result: entry.result, cachedAt: entry.producedAt };
  }

  private async scan(key: string, endpoint: EndpointId, subject: string, rpc: SolanaRpc): Promise<ScanRun> {
    const now = this.options.now ?? Date.now;
    const { signal, clear, end } = scanDeadline(this.options.timeoutMs);
    const scanner = this.options.scanners[endpoint];
    if (scanner === undefined) throw new ScanFailedError(`no scanner for ${endpoint}`);
    const started = performance.now();
    const timed = (outcome: 'ok' | 'failed') =>
      this.options.metrics?.scanDuration(endpoint, (performance.now() - started) / 1000, outcome);
    const outcome = await withDeadline(
      servesOf(endpoint, this.options.serves).then((serves) =>
        // Under an RPC rate limit, its reads wait behind those of scans started before it.
        inScanOrder(() => scanner(subject, { rpc, now, signal, ...serves })),
      ),
      signal,
      this.options.timeoutMs,
    ).then(
      (done) => {
        timed('ok');
        clear();
        return done;
      },
      (err: unknown) => {
        timed('failed');
        // Reads still in flight for a failed scan stop now: one still retrying behind a fault
        // would otherwise go on after the fault is gone, and the scan paid for next meets it.
        end();
        throw err;
      },
    );
    const ttlSeconds = outcome.cacheTtlSeconds ?? this.ttl.get(endpoint) ?? 60;
    const entry: CachedEntry = { result: outcome.result, producedAt: new Date(now()).toISOString() };
    // A cache that cannot be written must not fail a scan that succeeded; TTL 0 means "do not cache".
    if (ttlSeconds > 0) {
      await this.options.cache.set(key, JSON.stringify(entry), ttlSeconds * 1000).catch(() => undefined);
    }
    return { result: outcome.result, cachedAt: null };
  }
}

/**
 * The scans that choose their sources by what the RPC serves, and when they learn it: pump.fun
 * before it starts; the token scan asks itself, only once a mint shows a pump.fun curve.
 */
const ASKS_SERVES: Readonly<Partial<Record<EndpointId, 'before' | 'on_demand'>>> = {
  pumpfun: 'before',
  token: 'on_demand',
};

/** What the RPC serves, probed once, for a scan that chooses its sources by it. */
async function servesOf(
  endpoint: EndpointId,
  probed: (() => Promise<RpcServes | undefined>) | undefined,
): Promise<{ serves?: RpcServes; askServes?: () => Promise<RpcServes | undefined> }> {
  const when = ASKS_SERVES[endpoint];
  if (when === undefined || probed === undefined) return {};
  if (when === 'on_demand') return { askServes: probed };
  const serves = await probed();
  return serves ? { serves } : {};
}

/** A scanner that ignores its abort signal still cannot hold a paid request past the deadline. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ScanFailedError(`the scan took longer than ${timeoutMs} ms`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
