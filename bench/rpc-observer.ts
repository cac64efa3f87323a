/**
 * What the RPC metrics cost a scan read: the failover transport over an endpoint that answers at
 * once (no network, so nothing hides the difference), without an observer and with the
 * service's metrics observer, in interleaved rounds of the same process. Reported per read: ns
 * without, ns with, and the median (min–max) over rounds of the difference; plus the observer's
 * own work on its own (two clock reads and its `call` on the series of a method already seen),
 * which a busy machine's noise does not hide.
 */
import type { RpcTransport } from '@solana/kit';
import { Registry } from 'prom-client';
import { createRpcMetrics } from '../src/server/upstream-metrics.js';
import { createFailoverTransport } from '../src/solana/rpc.js';
import type { RpcObserver } from '../src/solana/rpc-observer.js';
import { median, printTable } from './lib/report.js';

export interface RpcObserverResult {
  readonly reads: number;
  readonly rounds: number;
  readonly bareNsPerRead: number;
  readonly observedNsPerRead: number;
  /** Median over rounds of (observed − bare) in the same round, ns per read. */
  readonly addedNs: number;
  readonly addedNsMin: number;
  readonly addedNsMax: number;
  /** The observer's own work per read (two clock reads and its `call`), ns (median over rounds). */
  readonly observerCallNs: number;
}

/** An endpoint that answers every request at once with its own id. */
const instant = (async (request) => ({
  jsonrpc: '2.0',
  id: (request.payload as { id: unknown }).id,
  result: { value: null },
})) as RpcTransport;

async function nsPerRead(transport: RpcTransport, reads: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let id = 0; id < reads; id++) {
    await transport({ payload: { jsonrpc: '2.0', id, method: 'getAccountInfo', params: ['x'] } });
  }
  return Number(process.hrtime.bigint() - started) / reads;
}

/** The work the observer adds to a read, on its own: two clock reads and the observer's call. */
function nsPerObserverCall(observer: RpcObserver, calls: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    observer.call(0, 'getAccountInfo', 'ok', (performance.now() - t) / 1000);
  }
  return Number(process.hrtime.bigint() - started) / calls;
}

export async function runRpcObserverBench(options: {
  reads: number;
  rounds: number;
}): Promise<RpcObserverResult> {
  const observer = createRpcMetrics(new Registry(), ['https://rpc.example.com']);
  const bare = createFailoverTransport([instant], 10_000);
  const observed = createFailoverTransport([instant], 10_000, {}, null, observer);
  await nsPerRead(bare, options.reads); // warm-up of both paths
  await nsPerRead(observed, options.reads);
  const rounds: { bare: number; observed: number; call: number }[] = [];
  for (let r = 0; r < options.rounds; r++) {
    // Alternate which goes first, so neither always runs on a warmer heap.
    const first = r % 2 === 0 ? bare : observed;
    const a = await nsPerRead(first, options.reads);
    const b = await nsPerRead(first === bare ? observed : bare, options.reads);
    const [bareNs, observedNs] = first === bare ? [a, b] : [b, a];
    rounds.push({ bare: bareNs, observed: observedNs, call: nsPerObserverCall(observer, options.reads) });
  }
  const added = rounds.map((r) => r.observed - r.bare);
  const result: RpcObserverResult = {
    reads: options.reads,
    rounds: rounds.length,
    bareNsPerRead: median(rounds.map((r) => r.bare)),
    observedNsPerRead: median(rounds.map((r) => r.observed)),
    addedNs: median(added),
    addedNsMin: Math.min(...added),
    addedNsMax: Math.max(...added),
    observerCallNs: median(rounds.map((r) => r.call)),
  };
  printTable(
    `RPC metrics per read: the failover transport over an instant endpoint, ${result.rounds} interleaved rounds of ${options.reads} reads`,
    [
      'without observer ns/read',
      'with observer ns/read',
      'added ns/read (median, min–max)',
      'observer work alone ns (clock reads + call)',
    ],
    [
      [
        result.bareNsPerRead.toFixed(0),
        result.observedNsPerRead.toFixed(0),
        `${result.addedNs.toFixed(0)} (${result.addedNsMin.toFixed(0)}–${result.addedNsMax.toFixed(0)})`,
        result.observerCallNs.toFixed(0),
      ],
    ],
  );
  return result;
}
