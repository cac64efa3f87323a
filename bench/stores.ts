/**
 * What the payment store costs a paid call whose scan result is cached: the real payment core
 * (`createPaymentGate`: admit → claim → verify → produce → settle → record) with instant
 * in-process fakes for the facilitator (valid, settled), the settlement lookup and the funds
 * check, and a `produce` that returns a cached body at once — so all that differs between
 * backends is the store (claim, markSending, record per call). Backends: memory, the embedded
 * lmdb store (a temporary directory on local disk, removed after) and Redis (a real
 * redis-server started here) with AOF on, twice: `appendfsync everysec`, as production runs it,
 * and `appendfsync always` (every write on disk before Redis answers), as
 * test/helpers/redis-server.ts `persist` runs it. AOF is turned on with CONFIG SET, so both
 * servers start the same way.
 *
 * Every call presents a new payment (its own payment key), built and signed before anything is
 * timed; each backend is handed the very same payments. Cases: paid calls with many in flight
 * and one at a time (the latter shows a durable commit's per-call latency), and the replay of a
 * settled payment (the stored response: one claim read), both ways. Rounds are interleaved
 * (memory, lmdb, the two Redis, then the reverse) and each backend is reported as the median of its
 * per-round ratios to memory: these machines are noisy.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, address, generateKeyPairSigner } from '@solana/kit';
import bs58 from 'bs58';
import type { Redis } from 'ioredis';
import { PAID_ENDPOINTS } from '../src/catalog.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../src/solana/programs.js';
import { openLmdbPaymentStore } from '../src/state/payments/lmdb.js';
import { createMemoryPaymentStore } from '../src/state/payments/memory.js';
import { createRedisPaymentStore } from '../src/state/payments/redis.js';
import { connectRedis } from '../src/state/redis-client.js';
import type { FacilitatorStatus } from '../src/x402/facilitators.js';
import { SOLANA_MAINNET_CAIP2 } from '../src/x402/networks.js';
import { createPaymentGate, type PaidCall, type PaymentGate } from '../src/x402/paid-call.js';
import type { PaymentStore } from '../src/x402/payment-store.js';
import {
  offlinePaymentTransaction,
  usdcAccountOf,
  v2PaymentHeader,
} from '../test/helpers/offline-payment.js';
import { startRedis } from '../test/helpers/redis-server.js';
import { median, percentile, printTable } from './lib/report.js';

const BACKENDS = ['memory', 'lmdb', 'redis', 'redis, fsync always'] as const;
type BackendName = (typeof BACKENDS)[number];

const endpoint = PAID_ENDPOINTS.find((e) => e.id === 'wallet')!;
const PRICE = 20_000n;
const SUBJECT = 'So11111111111111111111111111111111111111112';
const PATH = `/scan/wallet/${SUBJECT}`;
const RESOURCE = `https://scan.test${PATH}`;
const SETTLED_SIGNATURE = '5'.repeat(87);

/**
 * A cached wallet result as the producer sells it (about 1.5 kB): the body the store keeps
 * twice per call (markSending, record). Only `request_id` changes from call to call.
 */
const CACHED_RESULT = JSON.stringify({
  risk_score: 0.34,
  flags: ['NEW_WALLET', 'FEW_COUNTERPARTIES', 'RECENT_LARGE_INFLOW'],
  confidence: 0.9,
  summary: 'A young wallet with few counterparties that recently received a large inflow.',
  recommendation: 'Proceed with caution: verify the counterparty before sending significant value.',
  reasoning: [
    'First transaction seen 6 days ago (NEW_WALLET).',
    'Interacted with 3 distinct counterparties in its history (FEW_COUNTERPARTIES).',
    'Received 1,250 USDC from one source in the last 24 hours (RECENT_LARGE_INFLOW).',
    'No interaction with known scam or drainer programs.',
  ],
  evidence: {
    first_seen: '2025-01-04T10:22:31.000Z',
    transactions_seen: 41,
    counterparties: [
      'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
      '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4',
    ],
    largest_inflow: { amount: '1250000000', mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
    sol_balance: '183204400',
  },
  cached: true,
  cached_at: '2025-01-10T08:00:00.000Z',
  version: 'bench',
});
const cachedBody = (requestId: string) => `${CACHED_RESULT.slice(0, -1)},"request_id":"${requestId}"}`;

interface Backend {
  readonly name: BackendName;
  readonly gate: PaymentGate;
  /** How many times `produce` ran: a replay must not run it. */
  produced(): number;
  close(): Promise<void>;
}

interface Terms {
  readonly payTo: string;
  readonly feePayer: string;
  readonly facilitator: FacilitatorStatus;
  readonly destinations: Readonly<Record<string, Address>>;
}

async function makeTerms(): Promise<Terms> {
  const feePayer = (await generateKeyPairSigner()).address;
  const payTo = (await generateKeyPairSigner()).address;
  return {
    payTo,
    feePayer,
    facilitator: {
      url: 'http://facilitator.bench',
      healthy: true,
      feePayer,
      networks: { v1: 'solana', v2: SOLANA_MAINNET_CAIP2 },
      lastError: null,
      checkedAt: 0,
    },
    destinations: {
      [TOKEN_PROGRAM]: address(await usdcAccountOf(payTo)),
      // The payments here are all SPL Token transfers: Token-2022 gets an address none names.
      [TOKEN_2022_PROGRAM]: address(SUBJECT),
    },
  };
}

/** The production payment core on `store`, with every other dependency an instant fake. */
function gateOn(store: PaymentStore, terms: Terms, onProduce: () => void): PaymentGate {
  return createPaymentGate({
    facilitators: {
      status: () => [terms.facilitator],
      byFeePayer: (f) => (f === terms.feePayer ? terms.facilitator : null),
      markUnhealthy: () => undefined,
    },
    canProduce: () => true,
    payTo: terms.payTo,
    destinations: terms.destinations,
    client: {
      verify: async () => ({ isValid: true }),
      settle: async () => ({ success: true, transaction: SETTLED_SIGNATURE, network: SOLANA_MAINNET_CAIP2 }),
    },
    store,
    lookup: { find: async () => ({ state: 'unknown', signature: null }) },
    funds: { covers: async () => true },
    produce: async (_endpoint, _subject, requestId) => {
      onProduce();
      return cachedBody(requestId);
    },
    maxTimeoutSeconds: 60,
    verifyTimeoutMs: 10_000,
    settleTimeoutMs: 10_000,
    // The production default (PARALLEL_VERIFY=true).
    parallelVerify: true,
    confirmWindowMs: 10_000,
  });
}

async function backend(name: BackendName, store: PaymentStore, terms: Terms, after: () => Promise<void>) {
  let produced = 0;
  const gate = gateOn(store, terms, () => produced++);
  return {
    name,
    gate,
    produced: () => produced,
    close: async () => {
      await gate.close();
      await store.close();
      await after();
    },
  } satisfies Backend;
}

/** Polls INFO persistence until Redis has written its first AOF and appends to it. */
async function awaitAof(info: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await info();
    const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(text)?.[1];
    if (
      field('aof_enabled') === '1' &&
      field('aof_rewrite_in_progress') === '0' &&
      field('aof_rewrite_scheduled') === '0'
    )
      return;
    if (Date.now() > deadline) throw new Error(`Redis did not turn AOF on:\n${text}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One payment header per call, all signed now (signing is far slower than a call). */
async function buildHeaders(terms: Terms, count: number): Promise<string[]> {
  const payer = await generateKeyPairSigner();
  const headers: string[] = [];
  for (let i = 0; i < count; i++) {
    const transaction = await offlinePaymentTransaction({
      payer,
      payTo: terms.payTo,
      feePayer: terms.feePayer,
      amount: PRICE,
      // A new blockhash each: a new message, so a new payment key.
      blockhash: bs58.encode(randomBytes(32)),
    });
    headers.push(
      v2PaymentHeader(transaction, {
        payTo: terms.payTo,
        feePayer: terms.feePayer,
        amount: PRICE,
        resourceUrl: RESOURCE,
      }),
    );
  }
  return headers;
}

const callOf = (header: string): PaidCall => ({
  endpoint,
  priceUsd: endpoint.price.usd,
  subject: SUBJECT,
  requestId: randomUUID(),
  payment: { transport: 2, header, path: PATH, resource: RESOURCE },
});

interface Run {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Presents every header once, `concurrency` calls in flight; each must be delivered. */
async function drive(b: Backend, headers: readonly string[], concurrency: number, replay: boolean) {
  const latencies: number[] = [];
  const producedBefore = b.produced();
  let next = 0;
  const worker = async () => {
    while (next < headers.length) {
      const call = callOf(headers[next++]!);
      const started = performance.now();
      const outcome = await b.gate.handle(call);
      latencies.push(performance.now() - started);
      if (outcome.kind !== 'deliver') {
        const why = 'reason' in outcome ? outcome.reason : outcome.error.message;
        throw new Error(`${b.name}: a ${replay ? 'replayed' : 'paid'} call was not delivered: ${why}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, headers.length) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const produced = b.produced() - producedBefore;
  if (produced !== (replay ? 0 : headers.length)) {
    throw new Error(
      `${b.name}: ${produced} results produced for ${headers.length} ${replay ? 'replays' : 'calls'}`,
    );
  }
  return {
    callsPerSecond: headers.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  } satisfies Run;
}

interface Case {
  readonly name: string;
  readonly concurrency: number;
  readonly replay: boolean;
  /** Which of a round's payments it presents: the concurrent or the sequential batch. */
  readonly batch: 'many' | 'one';
}

export interface StoresRow {
  readonly case: string;
  readonly backend: BackendName;
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Median over rounds of (this backend ÷ memory in the same round); 1 for memory. */
  readonly throughputRatio: number;
  readonly p99Ratio: number;
}

export async function runStoresBench(options: {
  /** Paid calls per backend per round with `concurrency` in flight. */
  calls: number;
  /** Paid calls per backend per round one at a time. */
  sequentialCalls: number;
  concurrency: number;
  rounds: number;
}) {
  const { calls, sequentialCalls, concurrency, rounds } = options;
  const cases: readonly Case[] = [
    { name: `paid, ${concurrency} in flight`, concurrency, replay: false, batch: 'many' },
    { name: 'paid, sequential', concurrency: 1, replay: false, batch: 'one' },
    { name: `replay, ${concurrency} in flight`, concurrency, replay: true, batch: 'many' },
    { name: 'replay, sequential', concurrency: 1, replay: true, batch: 'one' },
  ];
  const terms = await makeTerms();
  // Round 0 warms up (JIT, connections, the lmdb map) and is not reported.
  const warmup = { many: Math.min(calls, 500), one: Math.min(sequentialCalls, 50) };
  const signingStarted = performance.now();
  const batches: { many: string[]; one: string[] }[] = [];
  for (let round = 0; round <= rounds; round++) {
    batches.push({
      many: await buildHeaders(terms, round === 0 ? warmup.many : calls),
      one: await buildHeaders(terms, round === 0 ? warmup.one : sequentialCalls),
    });
  }
  const signingSeconds = (performance.now() - signingStarted) / 1000;

  const backends = new Map<BackendName, Backend>();
  const lmdbDir = await mkdtemp(join(tmpdir(), 'bench-lmdb-'));
  let redisVersion = '?';
  const rows: StoresRow[] = [];
  try {
    backends.set('memory', await backend('memory', createMemoryPaymentStore(), terms, async () => undefined));
    backends.set(
      'lmdb',
      await backend('lmdb', await openLmdbPaymentStore({ path: lmdbDir }), terms, () =>
        rm(lmdbDir, { recursive: true, force: true }),
      ),
    );
    for (const [name, fsync] of [
      ['redis', 'everysec'],
      ['redis, fsync always', 'always'],
    ] as const) {
      const server = await startRedis();
      let connected: Redis | undefined;
      try {
        const redis = await connectRedis(server.url);
        connected = redis;
        await redis.config('SET', 'appendfsync', fsync);
        await redis.config('SET', 'appendonly', 'yes');
        await awaitAof(() => redis.info('persistence'));
        redisVersion = /^redis_version:(\S+)/m.exec(await redis.info('server'))?.[1] ?? '?';
        const store = createRedisPaymentStore({ redis, ownsClient: true, prefix: 'bench:payment:' });
        backends.set(name, await backend(name, store, terms, () => server.stop()));
      } catch (error) {
        connected?.disconnect();
        await server.stop();
        throw error;
      }
    }

    const runs = new Map<string, Run[]>();
    for (let round = 0; round <= rounds; round++) {
      const batch = batches[round]!;
      for (const c of cases) {
        // Alternate the order, so a backend is not always measured just after the same one.
        const order = round % 2 === 0 ? BACKENDS : [...BACKENDS].reverse();
        for (const name of order) {
          const run = await drive(backends.get(name)!, batch[c.batch], c.concurrency, c.replay);
          if (round === 0) continue;
          const key = `${c.name}/${name}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
        }
      }
    }

    for (const c of cases) {
      const memory = runs.get(`${c.name}/memory`)!;
      for (const name of BACKENDS) {
        const mine = runs.get(`${c.name}/${name}`)!;
        const perRound = (f: (r: Run) => number) => median(mine.map((r, i) => f(r) / f(memory[i]!)));
        rows.push({
          case: c.name,
          backend: name,
          callsPerSecond: median(mine.map((r) => r.callsPerSecond)),
          p50Ms: median(mine.map((r) => r.p50Ms)),
          p99Ms: median(mine.map((r) => r.p99Ms)),
          throughputRatio: perRound((r) => r.callsPerSecond),
          p99Ratio: perRound((r) => r.p99Ms),
        });
      }
    }
  } finally {
    for (const b of backends.values()) await b.close();
    await rm(lmdbDir, { recursive: true, force: true });
  }

  printTable(
    `Payment store cost of a paid cached-hit call, vs the memory store (${rounds} interleaved rounds after a warm-up; ` +
      `${calls} calls per round at ${concurrency} in flight, ${sequentialCalls} one at a time; ` +
      `lmdb in ${tmpdir()}; Redis ${redisVersion} on 127.0.0.1, appendonly yes, appendfsync everysec unless said; not pinned)`,
    ['case', 'store', 'calls/s', 'calls/s ratio', 'p50 ms', 'p99 ms', 'p99 ratio'],
    rows.map((r) => [
      r.case,
      r.backend,
      r.callsPerSecond.toFixed(0),
      r.throughputRatio.toFixed(2),
      r.p50Ms.toFixed(2),
      r.p99Ms.toFixed(2),
      r.p99Ratio.toFixed(2),
    ]),
  );
  return {
    setup: {
      calls,
      sequentialCalls,
      concurrency,
      rounds,
      redis: `${redisVersion}, appendonly yes, appendfsync everysec (redis) or always`,
      signingSeconds,
    },
    rows,
  };
}
