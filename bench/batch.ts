/**
 * A batch of scans against the same subjects scanned one by one (ScanService.runBatch against
 * ScanService.run), on the seeded sandbox, by kind, for unrelated subjects and for the
 * related-launches cluster (one creator's coins, coins one ring sniped). The sandbox RPC runs in
 * a worker thread.
 *
 * Calls and round trips are counted with the wave-stepping transport (test/helpers/wave-transport.ts):
 * deterministic, so counted once. Wall time is measured with 50 ms added to every call (a
 * provider's round trip), in interleaved rounds: the batch beside the mean single scan of the same
 * subjects and beside a plain batch (every subject at once, each reading for itself), as ratios
 * within the round, min / median / max over the rounds. The sandbox RPC answers one call at a time
 * (one thread), so a batch's wall time there is bound by the calls it sends, not its round trips.
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import type { ScanId } from '../src/catalog.js';
import { SCANNERS } from '../src/scans/registry.js';
import { ScanService } from '../src/scans/service.js';
import { createMemoryCache } from '../src/state/cache/memory.js';
import {
  byMethod,
  measureBatch,
  measureSingles,
  serviceOver,
  subjectsOf,
  verdictOf,
} from '../test/helpers/batch-measure.js';
import { delayedTransport } from '../test/helpers/rpc-transports.js';
import { printTable, type Spread, showSpread, spread } from './lib/report.js';
import { startSandboxRpcInWorker } from './lib/sandbox-rpc-worker.js';

const RPC_LATENCY_MS = 50;
const BATCH = 25;

interface Case {
  readonly endpoint: ScanId;
  readonly kinds: readonly string[];
  readonly set: 'unrelated' | 'related';
}

const CASES: readonly Case[] = [
  { endpoint: 'token', kinds: ['token', 'pumpfun'], set: 'unrelated' },
  { endpoint: 'pumpfun', kinds: ['pumpfun'], set: 'unrelated' },
  { endpoint: 'wallet', kinds: ['wallet'], set: 'unrelated' },
  { endpoint: 'token', kinds: ['pumpfun'], set: 'related' },
  { endpoint: 'pumpfun', kinds: ['pumpfun'], set: 'related' },
];

const NOW = Date.now();

/** Calls, round trips and equality of the items, counted once (the count does not vary). */
async function countCase(url: string, c: Case, subjects: readonly string[]) {
  const alone = await measureSingles(url, c.endpoint, subjects, () => NOW);
  const together = await measureBatch(url, c.endpoint, subjects, () => NOW);
  const same = (i: number) =>
    JSON.stringify(verdictOf(together.results[i]!)) === JSON.stringify(verdictOf(alone.results[i]!));
  return { alone, together, equal: subjects.filter((_, i) => same(i)).length };
}

const slow = (url: string): RpcTransport =>
  delayedTransport(createDefaultRpcTransport({ url }), RPC_LATENCY_MS);

function plainService(url: string): ScanService {
  const rpc = createSolanaRpcFromTransport(slow(url));
  return new ScanService({
    scanners: SCANNERS,
    rpc,
    cache: createMemoryCache(),
    now: () => NOW,
    timeoutMs: 120_000,
  });
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** One round's wall times: the merged batch, the mean single scan, a plain batch (each a fresh cache). */
async function timeRound(url: string, c: Case, subjects: readonly string[]) {
  const merged = await timed(() => serviceOver(slow(url), () => NOW).runBatch(c.endpoint, subjects));
  const plain = await timed(() => plainService(url).runBatch(c.endpoint, subjects));
  let singles = 0;
  for (const subject of subjects) singles += await timed(() => plainService(url).run(c.endpoint, subject));
  return { merged, single: singles / subjects.length, plain };
}

async function timeCases(url: string, cases: readonly (Case & { subjects: string[] })[], rounds: number) {
  const times = cases.map(() => ({
    merged: [] as number[],
    bySingle: [] as number[],
    byAll: [] as number[],
    byPlain: [] as number[],
  }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      const t = await timeRound(url, c, c.subjects);
      times[i]!.merged.push(t.merged);
      times[i]!.bySingle.push(t.merged / t.single);
      times[i]!.byAll.push(t.merged / (t.single * c.subjects.length));
      times[i]!.byPlain.push(t.merged / t.plain);
    }
  }
  return times.map((t) => ({
    mergedMs: spread(t.merged),
    bySingle: spread(t.bySingle),
    byAll: spread(t.byAll),
    byPlain: spread(t.byPlain),
  }));
}

const of = (calls: readonly string[], ...methods: string[]) =>
  calls.filter((c) => methods.includes(c)).length;
const perItem = (calls: readonly string[], n: number) => (calls.length / n).toFixed(1);
const change = (alone: readonly string[], together: readonly string[], ...methods: string[]) =>
  `${of(alone, ...methods)} → ${of(together, ...methods)}`;

type Counted = Awaited<ReturnType<typeof countCase>> & Case & { subjects: string[] };

function printCounts(rows: readonly Counted[]): void {
  printTable(
    `A batch against single scans of the same subjects: RPC calls and round trips (counted in waves, ${BATCH} subjects at most)`,
    [
      'endpoint',
      'subjects',
      'items equal to their single scan (flags, score)',
      'calls per item: single → batch',
      'batch ÷ single',
      'round trips: deepest single → batch',
      'getTransaction',
      'getSignaturesForAddress',
      'account reads (getAccountInfo, getMultipleAccounts)',
      'getEpochInfo',
    ],
    rows.map((r) => [
      r.endpoint,
      `${r.subjects.length} ${r.set}`,
      `${r.equal}/${r.subjects.length}`,
      `${perItem(r.alone.calls, r.subjects.length)} → ${perItem(r.together.calls, r.subjects.length)}`,
      `${((100 * r.together.calls.length) / r.alone.calls.length).toFixed(1)} %`,
      `${r.alone.roundTrips} → ${r.together.roundTrips}`,
      change(r.alone.calls, r.together.calls, 'getTransaction'),
      change(r.alone.calls, r.together.calls, 'getSignaturesForAddress'),
      change(r.alone.calls, r.together.calls, 'getAccountInfo', 'getMultipleAccounts'),
      change(r.alone.calls, r.together.calls, 'getEpochInfo'),
    ]),
  );
}

function printTimes(
  rows: readonly Counted[],
  times: Awaited<ReturnType<typeof timeCases>>,
  rounds: number,
): void {
  printTable(
    `A batch's wall time (${RPC_LATENCY_MS} ms per call; median (min–max) over ${rounds} interleaved rounds)`,
    [
      'endpoint',
      'subjects',
      'batch, ms',
      'batch ÷ the mean single scan',
      'batch ÷ its single scans one after another',
      'batch ÷ a plain batch (reads not merged)',
    ],
    rows.map((r, i) => [
      r.endpoint,
      `${r.subjects.length} ${r.set}`,
      showSpread(times[i]!.mergedMs, 0),
      showSpread(times[i]!.bySingle),
      showSpread(times[i]!.byAll),
      showSpread(times[i]!.byPlain),
    ]),
  );
}

export async function runBatchBench(options: { rounds: number }) {
  const server = await startSandboxRpcInWorker();
  try {
    const cases = CASES.map((c) => ({ ...c, subjects: subjectsOf(server.manifest, c.kinds, BATCH, c.set) }));
    const counted: Counted[] = [];
    for (const c of cases) counted.push({ ...c, ...(await countCase(server.url, c, c.subjects)) });
    const times = await timeCases(server.url, cases, options.rounds);
    printCounts(counted);
    printTimes(counted, times, options.rounds);
    return counted.map((r, i) => ({
      endpoint: r.endpoint,
      set: r.set,
      subjects: r.subjects.length,
      equal: r.equal,
      calls: { single: r.alone.calls.length, batch: r.together.calls.length },
      roundTrips: { single: r.alone.roundTrips, batch: r.together.roundTrips },
      byMethod: { single: byMethod(r.alone.calls), batch: byMethod(r.together.calls) },
      wallMs: times[i]!.mergedMs as Spread,
      bySingle: times[i]!.bySingle,
      byAll: times[i]!.byAll,
      byPlain: times[i]!.byPlain,
    }));
  } finally {
    await server.close();
  }
}
