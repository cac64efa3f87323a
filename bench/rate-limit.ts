/**
 * Sustained paid scans under a paid provider plan's rate limit (the sandbox's `paid-plan`
 * profile: 50 requests a second, then HTTP 429), with and without the limit stated
 * (RPC_RATE_LIMIT=50). `PAYERS` payers each pay for pump.fun and token scans back to back, for
 * `seconds`, through the official x402 client; results are not cached, so every call scans.
 * Each row: paid scans delivered a second, and of them those whole (no `*_UNAVAILABLE` flag: every
 * read served), also as a ratio to the first row's in the same round; the p50 and p99 of the
 * delivered; the plan's 429s met; scans not delivered (a 500: nothing settled) and scans
 * delivered with a `*_UNAVAILABLE` flag.
 * Min / median / max over interleaved rounds, each round on a fresh sandbox.
 *
 * A row is a name and the settings it runs with. The service keeps facts across scans by default
 * (in memory in the sandbox); the rows without it set FACT_STORE_MAX_ENTRIES=0. Every row scans
 * the same subjects (the seeded pump.fun and token subjects, the related-launches cluster among
 * them), so what the store saves is what related subjects and repeats share.
 */
import {
  type BurstSubject,
  NO_CACHE,
  type PaidScan,
  startPaidPlanSandbox,
} from '../test/helpers/paid-plan-sandbox.js';
import { percentile, printTable, type Spread, showSpread, spread } from './lib/report.js';

export interface RateLimitRow {
  readonly name: string;
  /** The service's settings in this row (on top of the sandbox's). */
  readonly env: Readonly<Record<string, string>>;
}

const NO_FACT_STORE = { FACT_STORE_MAX_ENTRIES: '0' };

export const ROWS: readonly RateLimitRow[] = [
  { name: 'no limit stated', env: {} },
  { name: 'RPC_RATE_LIMIT=50', env: { RPC_RATE_LIMIT: '50' } },
  // The fact store's rows: the same two without it.
  { name: 'no limit stated, no fact store', env: NO_FACT_STORE },
  { name: 'RPC_RATE_LIMIT=50, no fact store', env: { RPC_RATE_LIMIT: '50', ...NO_FACT_STORE } },
];

/** Payers paying at once, each for one scan after another. */
const PAYERS = 8;

interface Round {
  readonly scansPerSecond: number;
  /** Delivered with every read served: no `*_UNAVAILABLE` flag. */
  readonly wholePerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly rateLimited: number;
  readonly notDelivered: number;
  readonly unavailable: number;
}

/** Each payer scans its own share of the subjects in turn (no two at once on one subject) until time is up. */
async function sustained(
  scan: (s: BurstSubject) => Promise<PaidScan>,
  subjects: readonly BurstSubject[],
  seconds: number,
): Promise<{ scans: PaidScan[]; elapsedS: number }> {
  const scans: PaidScan[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  const payer = async (p: number) => {
    const mine = subjects.filter((_, i) => i % PAYERS === p);
    for (let i = 0; performance.now() < end; i++) scans.push(await scan(mine[i % mine.length]!));
  };
  await Promise.all(Array.from({ length: PAYERS }, (_, p) => payer(p)));
  return { scans, elapsedS: (performance.now() - started) / 1000 };
}

async function round(row: RateLimitRow, seconds: number): Promise<Round> {
  const plan = await startPaidPlanSandbox({ ...row.env }, { cache: NO_CACHE });
  try {
    const { scans, elapsedS } = await sustained((s) => plan.scan(s), plan.subjects, seconds);
    const delivered = scans.filter((s) => s.status === 200 && s.receipt);
    const ms = delivered.map((s) => s.ms);
    const whole = delivered.filter((s) => !s.flags.some((f) => f.endsWith('_UNAVAILABLE')));
    return {
      scansPerSecond: delivered.length / elapsedS,
      wholePerSecond: whole.length / elapsedS,
      p50Ms: ms.length ? percentile(ms, 50) : Number.NaN,
      p99Ms: ms.length ? percentile(ms, 99) : Number.NaN,
      rateLimited: plan.rateLimited(),
      notDelivered: scans.length - delivered.length,
      unavailable: delivered.length - whole.length,
    };
  } finally {
    await plan.close();
  }
}

export interface RateLimitResult {
  readonly row: string;
  readonly scansPerSecond: Spread;
  readonly wholePerSecond: Spread;
  /** Whole scans a second against the first row's in the same round. */
  readonly wholeRatio: Spread;
  readonly p50Ms: Spread;
  readonly p99Ms: Spread;
  readonly rateLimited: Spread;
  readonly notDelivered: Spread;
  readonly unavailable: Spread;
}

export async function runRateLimitBench(options: {
  seconds: number;
  rounds: number;
}): Promise<RateLimitResult[]> {
  const runs = new Map<string, Round[]>(ROWS.map((r) => [r.name, []]));
  for (let i = 0; i < options.rounds; i++) {
    // Alternate the order, so a row is not always measured just after the same one.
    const order = i % 2 === 0 ? ROWS : [...ROWS].reverse();
    for (const row of order) runs.get(row.name)!.push(await round(row, options.seconds));
  }
  const baseline = runs.get(ROWS[0]!.name)!;
  const results = ROWS.map((row) => {
    const mine = runs.get(row.name)!;
    const of = (pick: (r: Round) => number) => spread(mine.map(pick));
    return {
      row: row.name,
      scansPerSecond: of((r) => r.scansPerSecond),
      wholePerSecond: of((r) => r.wholePerSecond),
      wholeRatio: spread(mine.map((r, i) => r.wholePerSecond / baseline[i]!.wholePerSecond)),
      p50Ms: of((r) => r.p50Ms),
      p99Ms: of((r) => r.p99Ms),
      rateLimited: of((r) => r.rateLimited),
      notDelivered: of((r) => r.notDelivered),
      unavailable: of((r) => r.unavailable),
    };
  });
  printTable(
    `Paid scans under a 50-requests-a-second plan (sandbox paid-plan profile; ${PAYERS} payers, pump.fun and token scans, no cache; ${options.rounds} interleaved rounds of ${options.seconds} s; median (min–max))`,
    [
      'row',
      'paid scans delivered/s',
      'of them whole/s',
      'whole/s vs no limit',
      'p50 ms',
      'p99 ms',
      '429s met',
      'not delivered',
      'delivered with *_UNAVAILABLE',
    ],
    results.map((r) => [
      r.row,
      showSpread(r.scansPerSecond, 2),
      showSpread(r.wholePerSecond, 2),
      showSpread(r.wholeRatio, 2),
      showSpread(r.p50Ms, 0),
      showSpread(r.p99Ms, 0),
      showSpread(r.rateLimited, 0),
      showSpread(r.notDelivered, 0),
      showSpread(r.unavailable, 0),
    ]),
  );
  return results;
}
