/**
 * `npm run bench`: every benchmark, one after another (never concurrently: they would
 * measure each other). BENCH_SECONDS and BENCH_ROUNDS shorten or lengthen the runs;
 * BENCH_ONLY=name runs one (and BENCH_CASE=prefix, with http, only its cases of that name).
 * Results are also written to bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { runBatchBench } from './batch.js';
import { runHttpOverhead } from './http-overhead.js';
import { runLogLineBench } from './log-line.js';
import { runOfficialBench } from './official.js';
import { runPaidLatency } from './paid-latency.js';
import { runRateLimitBench } from './rate-limit.js';
import { runSandboxBench } from './sandbox.js';
import { runSandboxStartBench } from './sandbox-start.js';
import { runScanFacts } from './scan-facts.js';
import { runScanLatency } from './scan-latency.js';
import { runSigningBench } from './signing.js';
import { runStoresBench } from './stores.js';
import { runWatchTriggersBench } from './watch-triggers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const only = process.env.BENCH_ONLY;

const BENCHES: Record<string, () => Promise<unknown>> = {
  // Many short rounds: the median of per-round ratios is what stands up to this machine's noise.
  http: () =>
    runHttpOverhead({
      seconds: Number(process.env.BENCH_SECONDS ?? 2),
      rounds: Number(process.env.BENCH_ROUNDS ?? 16),
      ...(process.env.BENCH_CASE === undefined ? {} : { cases: process.env.BENCH_CASE }),
    }),
  official: () =>
    runOfficialBench({
      seconds: Number(process.env.BENCH_SECONDS ?? 2),
      rounds: Number(process.env.BENCH_ROUNDS ?? 9),
      paidCalls: Number(process.env.BENCH_PAID_CALLS ?? 300),
      paidRounds: Number(process.env.BENCH_PAID_ROUNDS ?? 5),
    }),
  sandbox: () => runSandboxBench({ seconds }),
  // npm start in sandbox mode: seeding every start (as main) against the kept snapshot.
  start: () => runSandboxStartBench({ rounds: Number(process.env.BENCH_ROUNDS ?? 5) }),
  scans: () => runScanLatency(),
  // Facts kept across scans: calls by method, first scan and second (same subject, or another coin of the creator).
  facts: () => runScanFacts({ rounds: Number(process.env.BENCH_ROUNDS ?? 5) }),
  payments: () => runPaidLatency({ calls: Number(process.env.BENCH_CALLS ?? 20) }),
  stores: () =>
    runStoresBench({
      calls: Number(process.env.BENCH_CALLS ?? 2000),
      sequentialCalls: Number(process.env.BENCH_SEQUENTIAL_CALLS ?? 200),
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
      rounds: Number(process.env.BENCH_ROUNDS ?? 7),
    }),
  signing: async () =>
    runSigningBench({
      bodies: Number(process.env.BENCH_BODIES ?? 2_000),
      rounds: Number(process.env.BENCH_ROUNDS ?? 9),
    }),
  watch: () =>
    runWatchTriggersBench({
      seconds: Number(process.env.BENCH_SECONDS ?? 3),
      rounds: Number(process.env.BENCH_ROUNDS ?? 5),
      delayRounds: Number(process.env.BENCH_DELAY_ROUNDS ?? 5),
    }),
  // Sustained paid scans under the sandbox's 50-requests-a-second plan, with and without RPC_RATE_LIMIT.
  ratelimit: () =>
    runRateLimitBench({
      seconds: Number(process.env.BENCH_SECONDS ?? 20),
      rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    }),
  // A batch of 25 against single scans of the same subjects: calls, round trips, wall time.
  batch: () => runBatchBench({ rounds: Number(process.env.BENCH_ROUNDS ?? 5) }),
  'log-line': () =>
    runLogLineBench({
      lines: Number(process.env.BENCH_LINES ?? 50_000),
      rounds: Number(process.env.BENCH_ROUNDS ?? 31),
    }),
};

const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
for (const [name, run] of Object.entries(BENCHES)) {
  if (only !== undefined && only !== name) continue;
  results[name] = await run();
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
