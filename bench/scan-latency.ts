/**
 * Scan latency per endpoint against the seeded sandbox with 50 ms added to every RPC call,
 * reported as the number of sequential round trips it amounts to (p50 ÷ 50 ms). Target at p50
 * for token and pump.fun: ≤ 3.2 × 50 ms + 20 ms (three round trips — the third reads the pools —
 * and local work; a young token's launch is sent in the second, and the third does not wait for
 * it). Round trips are counted as the longest chain of calls each sent after the one before it
 * finished (test/helpers/rpc-transports.ts, countingTransport). Each launch case runs young (its
 * whole history in one page) and old (the same mint behind a full page: no launch forensics).
 * The sandbox RPC runs in a worker thread, so its own work is not counted as the scanner's.
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import type { ScanId } from '../src/catalog.js';
import type { ScenarioManifest } from '../src/sandbox/scenarios/manifest.js';
import { SCANNERS } from '../src/scans/registry.js';
import { createLeanSolanaRpc } from '../src/solana/lean-responses.js';
import type { SolanaRpc } from '../src/solana/rpc.js';
import {
  type CountingTransport,
  countingTransport,
  delayedTransport,
  fullHistoryTransport,
} from '../test/helpers/rpc-transports.js';
import { median, percentile, printTable, type Spread, showSpread, spread } from './lib/report.js';
import { startSandboxRpcInWorker } from './lib/sandbox-rpc-worker.js';

const RPC_LATENCY_MS = 50;
/** Rounds, and scans of each kind per round (BENCH_ROUNDS, BENCH_RUNS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Representative seeded subjects per endpoint, by manifest name. */
const SUBJECTS: readonly (readonly [ScanId, string, ('old' | undefined)?])[] = [
  ['pumpfun', 'pumpfun:curve-active'],
  ['pumpfun', 'pumpfun:launch-bundled'],
  // Creator history from the creator's own transactions (no getProgramAccounts: not probed here).
  ['pumpfun', 'pumpfun:serial-closed'],
  ['pumpfun', 'pumpfun:dev-dump'],
  // Insiders by funding: one hop (the creator, an exchange ends the chain), and two (an intermediate).
  ['pumpfun', 'pumpfun:insiders-creator-funded'],
  ['pumpfun', 'pumpfun:insiders-exchange-funded'],
  ['pumpfun', 'pumpfun:insiders-via-intermediate'],
  ['token', 'token:insiders-creator-funded'],
  ['token', 'token:t22-transfer-fee'],
  // Copycat tickers (IMPERSONATES_VERIFIED_TOKEN) beside ordinary tokens of their kind: the rule
  // reads nothing more, so each costs its peer's round trips (Token-2022 metadata; Metaplex).
  ['token', 'token:copycat-usdc'],
  ['token', 'token:t22-permanent-delegate'],
  ['token', 'token:copycat-jup'],
  ['token', 'token:clean'],
  ['token', 'pumpfun:launch-bundled'],
  // A pump.fun mint on /scan/token runs the same creator history as /scan/pumpfun.
  ['token', 'pumpfun:serial-closed'],
  ['token', 'pumpfun:dev-dump'],
  // The same mints behind a full history page, as an old token answers: no launch forensics.
  ['token', 'token:t22-transfer-fee', 'old'],
  // A concentrated pool: its positions and their owners' NFTs (three rounds from the pool round).
  ['token', 'token:pool-owned'],
  // Thin pools at the agent's size: a CPMM pool (trade-size quote from its vaults), and a Whirlpool
  // whose tick arrays are read beside its quote vault (no round of their own).
  ['token', 'token:trade-thin'],
  ['token', 'token:pool-thin'],
  ['pumpfun', 'pumpfun:launch-bundled', 'old'],
  ['wallet', 'wallet:old-active'],
  ['tx', 'tx:high-priority-fee'],
  ['program', 'program:single-key'],
  ['simulate', 'sim:usdc-transfer'],
];

/**
 * The transfer simulation's path (token/transfer-simulation): a hook mint's simulation runs in the
 * third round, beside the pools, on /scan/token and /scan/pumpfun alike.
 */
const WITH_SIMULATION: [ScanId, string][] = [
  ['token', 'token:t22-hook-allows'],
  ['token', 'token:t22-hook-refuses'],
  ['pumpfun', 'token:t22-hook-refuses'],
];

/**
 * The calls one scan sent, sent again round by round (each round's calls at once, the next round
 * once they are all answered) with no scan work between: what the RPC, the latency and the HTTP
 * client cost alone. The scan's p50 less this one, measured in the same run, is the scanner's own
 * time, which the machine's noise moves far less than either figure. The replay is stricter than
 * the scans, whose third round does not wait for a launch's transactions: there the difference
 * can fall below zero.
 */
async function replayRounds(
  transport: RpcTransport,
  sent: CountingTransport['sent'],
  runs: number,
): Promise<Timing[]> {
  const rounds = Math.max(0, ...sent.map((c) => c.round));
  const times: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      await timed(async () => {
        for (let round = 1; round <= rounds; round++) {
          const calls = sent.filter((c) => c.round === round);
          await Promise.all(calls.map((c) => transport({ payload: c.payload })));
        }
      }),
    );
  }
  return times;
}

/**
 * A run's wall time, and the time the main thread was busy in it (event loop utilisation: not
 * idle, waiting for no answer): the scan's work and its HTTP client's, without the RPC's 50 ms
 * waits, whose noise on a loaded machine moves a wall-time difference by more than the work.
 */
interface Timing {
  readonly wall: number;
  readonly busy: number;
}

async function timed(run: () => Promise<unknown>): Promise<Timing> {
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  await run();
  const wall = performance.now() - started;
  return { wall, busy: performance.eventLoopUtilization(before).active };
}

const medianOf = (timings: readonly Timing[], key: keyof Timing) => median(timings.map((t) => t[key]));

/** One subject's subject text (a simulation's is its base64 wire transaction, the body POST /simulate/tx takes). */
function subjectOf(manifest: ScenarioManifest, name: string): string {
  const entry = [...manifest.subjects, ...manifest.simulations].find((s) => s.name === name) as
    | { address?: string; signature?: string; transaction?: string }
    | undefined;
  const subject = entry?.transaction ?? entry?.address ?? entry?.signature;
  if (subject === undefined) throw new Error(`the manifest has no ${name}`);
  return subject;
}

/** Each scan's timing, `runs` of them one after another. */
async function timeScans(
  endpoint: ScanId,
  subject: string,
  rpc: SolanaRpc,
  counter: CountingTransport,
  runs: number,
) {
  const times: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    counter.reset();
    times.push(await timed(() => SCANNERS[endpoint](subject, { rpc, now: Date.now })));
  }
  return times;
}

/** Own work in a round by both measures: the scans' p50 less the replay's, in wall time and in busy time. */
function ownWork(scans: readonly Timing[], replays: readonly Timing[]) {
  return {
    wall: medianOf(scans, 'wall') - medianOf(replays, 'wall'),
    busy: medianOf(scans, 'busy') - medianOf(replays, 'busy'),
  };
}

/**
 * One row: in each round, the scan `runs` times through the service's RPC (kit's, with the lean
 * walk of transaction and signature-page answers: src/solana/lean-responses.ts) and as many
 * through kit's own (its generic walk, the code before), in turns, then its calls replayed; own
 * work per round is a scan's p50 less the replay's. The first scan of all warms up and is not counted.
 */
async function measureCase(url: string, endpoint: ScanId, subject: string, age: 'old' | undefined) {
  const sandbox = createDefaultRpcTransport({ url });
  const counter = countingTransport(
    delayedTransport(age === 'old' ? fullHistoryTransport(sandbox) : sandbox, RPC_LATENCY_MS),
  );
  const lean = createLeanSolanaRpc(counter.transport);
  const kit = createSolanaRpcFromTransport(counter.transport);
  await timeScans(endpoint, subject, lean, counter, 1);
  const times: number[] = [];
  const rounds: { lean: Timing[]; kit: Timing[]; replays: Timing[] }[] = [];
  let [roundTrips, calls] = [0, 0];
  for (let round = 0; round < ROUNDS; round++) {
    // Each goes first in every other round: what runs after a replay or a warm JIT is not favoured.
    const kitFirst = round % 2 === 1;
    const kitBefore = kitFirst ? await timeScans(endpoint, subject, kit, counter, RUNS) : [];
    const leanTimes = await timeScans(endpoint, subject, lean, counter, RUNS);
    [roundTrips, calls] = [counter.roundTrips(), counter.calls.length];
    const sent = [...counter.sent];
    const kitTimes = kitFirst ? kitBefore : await timeScans(endpoint, subject, kit, counter, RUNS);
    rounds.push({
      lean: leanTimes,
      kit: kitTimes,
      replays: await replayRounds(counter.transport, sent, RUNS),
    });
    times.push(...leanTimes.map((t) => t.wall));
  }
  const own = rounds.map((r) => ownWork(r.lean, r.replays));
  const ownKit = rounds.map((r) => ownWork(r.kit, r.replays));
  return {
    times,
    replayed: median(rounds.map((r) => medianOf(r.replays, 'wall'))),
    own: spread(own.map((o) => o.wall)),
    ownKit: spread(ownKit.map((o) => o.wall)),
    busy: spread(own.map((o) => o.busy)),
    busyKit: spread(ownKit.map((o) => o.busy)),
    roundTrips,
    calls,
  };
}

export async function runScanLatency() {
  // The RPC answers from a worker thread, as a node on another machine would.
  const server = await startSandboxRpcInWorker();
  const rows: (Row & { readonly ownTime: number })[] = [];
  try {
    const cases: (readonly [ScanId, string, ('old' | undefined)?])[] = [...SUBJECTS, ...WITH_SIMULATION];
    for (const [endpoint, name, age] of cases) {
      const subject = subjectOf(server.manifest, name);
      const m = await measureCase(server.url, endpoint, subject, age);
      const p50 = median(m.times);
      rows.push({
        endpoint,
        subject: age === 'old' ? `${name} (history page full)` : name,
        p50,
        p95: percentile(m.times, 95),
        replayed: m.replayed,
        ownTime: m.own.median,
        own: m.own,
        ownKit: m.ownKit,
        busy: m.busy,
        busyKit: m.busyKit,
        roundTrips: m.roundTrips,
        calls: m.calls,
        effective: p50 / RPC_LATENCY_MS,
      });
    }
  } finally {
    await server.close();
  }
  printRows(rows);
  return rows;
}

interface Row {
  readonly endpoint: ScanId;
  readonly subject: string;
  readonly p50: number;
  readonly p95: number;
  readonly replayed: number;
  readonly own: Spread;
  readonly ownKit: Spread;
  readonly busy: Spread;
  readonly busyKit: Spread;
  readonly roundTrips: number;
  readonly calls: number;
  readonly effective: number;
}

function printRows(rows: readonly Row[]) {
  printTable(
    `Scan latency with ${RPC_LATENCY_MS} ms per RPC call (seeded sandbox; ${ROUNDS} rounds of ${RUNS} scans; target p50 for token and pump.fun: ≤ ${3.2 * RPC_LATENCY_MS + 20} ms; own work target ≤ 15 ms)`,
    [
      'endpoint',
      'subject',
      'p50 ms',
      'p95 ms',
      'its calls replayed, p50 ms',
      'scan work, ms (p50 − replayed), median (min–max) of rounds',
      "scan work through kit's walk, ms",
      'main thread busy, ms (scan − replayed)',
      "main thread busy through kit's walk, ms",
      'sequential round trips (counted)',
      'RPC calls',
      'p50 ÷ 50 ms',
    ],
    rows.map((r) => [
      r.endpoint,
      r.subject,
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.replayed.toFixed(1),
      showSpread(r.own, 1),
      showSpread(r.ownKit, 1),
      showSpread(r.busy, 1),
      showSpread(r.busyKit, 1),
      String(r.roundTrips),
      String(r.calls),
      r.effective.toFixed(2),
    ]),
  );
}
