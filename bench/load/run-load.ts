/**
 * One load run, end to end: the world (sandbox + API process), a warm-up sale that puts the
 * cached subject's result in the cache, the payment pools, the traffic with the API's RSS
 * sampled every second, then the payment audit. `npm run load` and test/e2e/load.test.ts both
 * run this.
 */
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { buildPayments, type PooledPayment, settledOnChain } from '../../test/helpers/payment-pool.js';
import { offerOf } from '../../test/helpers/payments.js';
import { median, percentile } from '../lib/report.js';
import { auditPayments, type PaymentAudit } from './audit.js';
import { driveTraffic, isPaid, KINDS, type Kind, type Sample } from './traffic.js';
import { type LoadWorld, RESOURCE_BASE, startLoadWorld, WALLET_PRICE } from './world.js';

export interface LoadOptions {
  readonly seconds: number;
  readonly connections: number;
  readonly mix?: Readonly<Record<Kind, number>>;
  /** Payments signed before the run, per paid kind. */
  readonly payments: { readonly cached: number; readonly fresh: number };
  readonly apiEnv?: Readonly<Record<string, string>>;
  readonly facilitatorLatencyMs?: number;
  /**
   * A saturation run: clients wait out a 503's Retry-After, replays go one at a time, and up
   * to this many refused payments are presented again afterwards (each must buy one result).
   */
  readonly saturation?: { readonly buyRefused: number };
}

export interface KindReport {
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface LoadReport {
  readonly seconds: number;
  readonly connections: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly byKind: Readonly<Record<Kind, KindReport>>;
  /** Every 5xx answer, whatever its kind. */
  readonly fiveXx: number;
  /** 5xx other than a paid call's 503 with Retry-After (the only 5xx shedding may give). */
  readonly unexpected5xx: number;
  /** Requests with no HTTP answer at all (reset, timeout). */
  readonly noAnswer: number;
  readonly errors: readonly string[];
  readonly poolExhausted: Readonly<Record<string, number>>;
  readonly audit: PaymentAudit;
  readonly rss: { readonly startBytes: number; readonly endBytes: number; readonly peakBytes: number };
  /** The API's V8 heap in use at the start and the end. */
  readonly heapUsed: { readonly startBytes: number; readonly endBytes: number };
}

const CALLS_PER_PAYER = 1000;

const randomWallet = () => `/scan/wallet/${bs58.encode(randomBytes(32))}`;

function kindReport(samples: readonly Sample[]): KindReport {
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const ms = samples.map((s) => s.ms);
  return {
    requests: samples.length,
    statuses,
    p50Ms: ms.length ? median(ms) : 0,
    p99Ms: ms.length ? percentile(ms, 99) : 0,
  };
}

async function pools(world: LoadWorld, cachedPath: string, o: LoadOptions) {
  const offer = await offerOf(world.api.url + cachedPath);
  const build = (paths: string[]) =>
    buildPayments({
      payers: world.payers,
      rpcUrl: world.sandbox.rpcServer.url,
      requirements: offer.v2,
      resourceBase: RESOURCE_BASE,
      paths,
    });
  return {
    warmUp: (await build([cachedPath]))[0]!,
    'paid-cached': await build(Array.from({ length: o.payments.cached }, () => cachedPath)),
    'paid-fresh': await build(Array.from({ length: o.payments.fresh }, randomWallet)),
  };
}

async function warmUp(world: LoadWorld, payment: PooledPayment) {
  const sale = await fetch(world.api.url + payment.path, {
    headers: { 'PAYMENT-SIGNATURE': payment.header },
  });
  if (sale.status !== 200) throw new Error(`the warm-up sale answered ${sale.status}: ${await sale.text()}`);
  for (const path of ['/health', '/openapi.json', '/llms.txt'])
    await (await fetch(world.api.url + path)).text();
}

function summarise(o: LoadOptions, samples: readonly Sample[], seconds: number) {
  const byKind = Object.fromEntries(
    KINDS.map((k) => [k, kindReport(samples.filter((s) => s.kind === k))]),
  ) as Record<Kind, KindReport>;
  const fiveXx = samples.filter((s) => s.status >= 500);
  const shed = (s: Sample) => s.status === 503 && isPaid(s.kind) && !!s.retryAfter;
  const errors = [...new Set(samples.flatMap((s) => (s.error ? [s.error] : [])))].slice(0, 5);
  return {
    seconds,
    connections: o.connections,
    requests: samples.length,
    requestsPerSecond: samples.length / seconds,
    byKind,
    fiveXx: fiveXx.length,
    unexpected5xx: fiveXx.filter((s) => !shed(s)).length,
    noAnswer: samples.filter((s) => s.status === 0).length,
    errors,
  };
}

/** The world a run of `o` needs: enough funded payers, the API with `o`'s settings. */
export function startWorldFor(o: LoadOptions): Promise<LoadWorld> {
  const payments = o.payments.cached + o.payments.fresh + 1;
  return startLoadWorld({
    payers: Math.max(1, Math.ceil(payments / CALLS_PER_PAYER)),
    callsPerPayer: CALLS_PER_PAYER * 2,
    ...(o.apiEnv && { apiEnv: o.apiEnv }),
    ...(o.facilitatorLatencyMs !== undefined && { facilitatorLatencyMs: o.facilitatorLatencyMs }),
  });
}

/** The subject whose result the warm-up sale puts in the cache. */
const cachedPathOf = (world: LoadWorld) => `/scan/wallet/${world.payers[0]!.address}`;

/**
 * Whether the API refuses paid calls when saturated: `calls` paid calls for new subjects sent
 * at once. Against MAX_INFLIGHT_PAID=1 and a slow facilitator, a shedding server answers
 * most of them 503.
 */
export async function shedsPaidCalls(world: LoadWorld, calls = 10): Promise<boolean> {
  const offer = await offerOf(world.api.url + cachedPathOf(world));
  const payments = await buildPayments({
    payers: world.payers,
    rpcUrl: world.sandbox.rpcServer.url,
    requirements: offer.v2,
    resourceBase: RESOURCE_BASE,
    paths: Array.from({ length: calls }, randomWallet),
  });
  const statuses = await Promise.all(
    payments.map(async (p) => {
      const res = await fetch(world.api.url + p.path, { headers: { 'PAYMENT-SIGNATURE': p.header } });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  return statuses.includes(503);
}

/** One run of traffic on `world` (started by startWorldFor), then the audit. */
export async function loadOn(world: LoadWorld, o: LoadOptions): Promise<LoadReport> {
  const s = world.sandbox;
  const pool = await pools(world, cachedPathOf(world), o);
  await warmUp(world, pool.warmUp);
  const settledBefore = new Set((await settledOnChain(s.chain, s.payTo)).keys());
  const receivedBefore = await s.usdcBalance(s.payTo);
  const startBytes = world.rss();
  const heapAtStart = await world.heapUsed();
  let peakBytes = startBytes;
  const sampler = setInterval(() => {
    peakBytes = Math.max(peakBytes, world.rss());
  }, 1000);
  const traffic = await driveTraffic({
    url: world.api.url,
    seconds: o.seconds,
    connections: o.connections,
    ...(o.mix && { mix: o.mix }),
    pools: { 'paid-cached': pool['paid-cached'], 'paid-fresh': pool['paid-fresh'] },
    honourRetryAfter: o.saturation !== undefined,
  }).finally(() => clearInterval(sampler));
  const endBytes = world.rss();
  const heapAtEnd = await world.heapUsed();
  const audit = await auditPayments({
    chain: s.chain,
    payTo: s.payTo,
    url: world.api.url,
    samples: traffic.samples,
    price: WALLET_PRICE,
    received: (await s.usdcBalance(s.payTo)) - receivedBefore,
    settledBefore,
    buyRefused: o.saturation?.buyRefused ?? 0,
    replayConcurrency: o.saturation ? 1 : 8,
  });
  return {
    ...summarise(o, traffic.samples, traffic.seconds),
    poolExhausted: traffic.poolExhausted,
    audit,
    rss: { startBytes, endBytes, peakBytes: Math.max(peakBytes, endBytes) },
    heapUsed: { startBytes: heapAtStart, endBytes: heapAtEnd },
  };
}

/** A world for `o`, one run on it, and the world closed. */
export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const world = await startWorldFor(o);
  try {
    return await loadOn(world, o);
  } finally {
    await world.close();
  }
}
