/**
 * Single flight across instances: two ScanServices with their own Redis clients on one Redis,
 * as two API processes would be, sharing one counting scanner. Where a test needs an instance
 * to be waiting, it waits until Redis shows the subscription (PUBSUB NUMSUB), never for a time.
 */
import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { after as afterAll, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { ScanFailedError, type Scanner } from '../../../src/scans/scanner.js';
import { type ScanRun, ScanService } from '../../../src/scans/service.js';
import type { SolanaRpc } from '../../../src/solana/rpc.js';
import { createMemoryCache } from '../../../src/state/cache/memory.js';
import { createRedisCache } from '../../../src/state/cache/redis.js';
import { createRedisFlights } from '../../../src/state/cache/redis-flights.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';

const SUBJECT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TIMEOUT_MS = 10_000;

interface Probe {
  readonly scanner: Scanner;
  calls(): number;
  /** Resolves once the first scan has started. */
  readonly started: Promise<void>;
  /** Lets a gated first scan finish. */
  open(): void;
}

/**
 * A scanner that counts its scans; each result names its scan, so equal results mean one scan.
 * `gated`: the first scan waits for open(); `failFirst`: the first scan throws.
 */
function countingScanner(options: { gated?: boolean; failFirst?: boolean; ttlSeconds?: number } = {}): Probe {
  let calls = 0;
  let started!: () => void;
  let open!: () => void;
  const startedP = new Promise<void>((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const scanner: Scanner = async (subject) => {
    const call = ++calls;
    started();
    if (options.gated && call === 1) await gate;
    if (options.failFirst && call === 1) throw new ScanFailedError('the RPC is unreachable');
    const result = {
      risk_score: 0.1,
      flags: [],
      confidence: 1,
      summary: `scan ${call} of ${subject}`,
      recommendation: 'Proceed.',
      reasoning: [],
    };
    return options.ttlSeconds === undefined ? { result } : { result, cacheTtlSeconds: options.ttlSeconds };
  };
  return { scanner, calls: () => calls, started: startedP, open };
}

/** Polls `check` until it holds; fails after a bound far above what it takes. */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await sleep(10);
  }
  assert.fail(`gave up waiting: ${what}`);
}

const results = (runs: PromiseSettledResult<ScanRun>[]) =>
  runs.map((r) => (r.status === 'fulfilled' ? r.value.result : assert.fail(String(r.reason))));

describe('local flights (the default): one process', () => {
  const service = (probe: Probe) =>
    new ScanService({
      scanners: { token: probe.scanner },
      rpc: {} as SolanaRpc,
      cache: createMemoryCache(),
      timeoutMs: TIMEOUT_MS,
    });

  it('50 identical concurrent runs scan once and get one result', async () => {
    const probe = countingScanner();
    const scans = service(probe);
    const runs = await Promise.all(Array.from({ length: 50 }, () => scans.run('token', SUBJECT)));
    assert.equal(probe.calls(), 1);
    for (const run of runs) assert.deepEqual(run, runs[0]);
    assert.equal((await scans.run('token', SUBJECT)).cachedAt !== null, true, 'then served from the cache');
  });

  it('a result with TTL 0 is shared by concurrent runs but not cached', async () => {
    const probe = countingScanner({ ttlSeconds: 0 });
    const scans = service(probe);
    await Promise.all([scans.run('token', SUBJECT), scans.run('token', SUBJECT)]);
    assert.equal(probe.calls(), 1);
    assert.equal((await scans.run('token', SUBJECT)).cachedAt, null);
    assert.equal(probe.calls(), 2);
  });
});

describe('Redis flights: two instances on one Redis', () => {
  let server: RedisServer;
  let admin: Redis;
  let tests = 0;
  const cleanups: (() => void)[] = [];
  before(async () => {
    server = await startRedis();
    admin = new Redis(server.url);
  });
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  afterAll(async () => {
    admin.disconnect();
    await server.stop();
  });

  /** Two instances sharing `probe`, in a namespace of this test's own. */
  function pair(probe: Probe, options: { url?: string; timeouts?: [number, number] } = {}) {
    const url = options.url ?? server.url;
    const [timeoutA, timeoutB] = options.timeouts ?? [TIMEOUT_MS, TIMEOUT_MS];
    const prefix = `t${++tests}:`;
    const clients: Redis[] = [];
    const instance = (timeoutMs: number) => {
      const redis = new Redis(url);
      clients.push(redis);
      redis.on('error', () => undefined); // reconnection attempts once a test kills Redis
      const flights = createRedisFlights({
        redis,
        prefix: `${prefix}flight:`,
        pollMs: 20,
        commandTimeoutMs: 300,
      });
      cleanups.push(() => {
        flights.close();
        redis.disconnect();
      });
      const cache = createRedisCache({ redis, prefix: `${prefix}cache:`, commandTimeoutMs: 300 });
      return new ScanService({
        scanners: { token: probe.scanner },
        rpc: {} as SolanaRpc,
        cache,
        timeoutMs,
        flights,
      });
    };
    const key = `scan:token:${SUBJECT}`;
    return {
      a: instance(timeoutA),
      b: instance(timeoutB),
      /** A's connection, to end it as a crash of A would. */
      clientA: clients[0]!,
      lock: `${prefix}flight:lock:${key}`,
      cacheKey: `${prefix}cache:${key}`,
      /** Resolves once `count` instances wait on the run's channel. */
      waiting: (count: number, on = admin) =>
        until(async () => {
          const [, subscribers] = (await on.pubsub('NUMSUB', `${prefix}flight:done:${key}`)) as [
            string,
            number,
          ];
          return subscribers >= count;
        }, `${count} instance(s) waiting`),
    };
  }

  /** `n` identical runs, alternating between the two instances. */
  const spread = (a: ScanService, b: ScanService, n: number) =>
    Promise.allSettled(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b).run('token', SUBJECT)));

  it('50 identical concurrent runs over both instances scan once and all get that scan', async () => {
    const probe = countingScanner();
    const { a, b } = pair(probe);
    const runs = results(await spread(a, b, 50));
    assert.equal(probe.calls(), 1);
    for (const result of runs) assert.deepEqual(result, runs[0]);
  });

  it('the waiting instance gets the holder’s value while the scan is still running', async () => {
    const probe = countingScanner({ gated: true });
    const { a, b, waiting } = pair(probe);
    const runs = spread(a, b, 50);
    await probe.started;
    await waiting(1);
    probe.open();
    const all = results(await runs);
    assert.equal(probe.calls(), 1);
    for (const result of all) assert.deepEqual(result, all[0]);
  });

  it('a result with TTL 0 is shared with the waiting instance, and not cached', async () => {
    const probe = countingScanner({ gated: true, ttlSeconds: 0 });
    const { a, b, waiting, cacheKey } = pair(probe);
    const runs = spread(a, b, 20);
    await probe.started;
    await waiting(1);
    probe.open();
    const all = results(await runs);
    assert.equal(probe.calls(), 1);
    for (const result of all) assert.deepEqual(result, all[0]);
    assert.equal(await admin.exists(cacheKey), 0);
    await b.run('token', SUBJECT);
    assert.equal(probe.calls(), 2, 'a later run scans again');
  });

  it('a lock left by a dead holder holds both instances back until it expires; then one scans', async () => {
    const probe = countingScanner();
    const { a, b, lock, waiting } = pair(probe);
    await admin.set(lock, 'dead-instance');
    const runs = spread(a, b, 50);
    await waiting(2);
    assert.equal(probe.calls(), 0, 'nobody scans under a live lock');
    await admin.pexpire(lock, 50); // the dead holder's PX running out
    const all = results(await runs);
    assert.equal(probe.calls(), 1);
    for (const result of all) assert.deepEqual(result, all[0]);
  });

  it('when the holder’s scan fails, the waiting instance takes the lock and scans itself', async () => {
    const probe = countingScanner({ gated: true, failFirst: true });
    const { a, b, waiting } = pair(probe);
    const first = a.run('token', SUBJECT);
    await probe.started;
    const others = Promise.allSettled(Array.from({ length: 10 }, () => b.run('token', SUBJECT)));
    await waiting(1);
    probe.open();
    await assert.rejects(first, ScanFailedError);
    const all = results(await others);
    assert.equal(probe.calls(), 2);
    for (const result of all) assert.equal(result.summary, `scan 2 of ${SUBJECT}`);
  });

  it('a holder that dies mid-scan leaves a lock that expires by itself; then the waiter scans', async () => {
    const probe = countingScanner({ gated: true });
    const { a, b, clientA, lock, waiting } = pair(probe, { timeouts: [500, TIMEOUT_MS] });
    const holder = assert.rejects(a.run('token', SUBJECT), ScanFailedError, 'A itself times out');
    await probe.started;
    const waiter = b.run('token', SUBJECT);
    await waiting(1);
    clientA.disconnect(); // A can no longer publish nor release
    assert.notEqual(await admin.pttl(lock), -1, 'the lock has an expiry');
    assert.equal((await waiter).result.summary, `scan 2 of ${SUBJECT}`);
    await holder;
    probe.open();
  });

  it('waiting ends at the deadline even if a lock never goes; each instance then scans', {
    timeout: 5000,
  }, async () => {
    // Not cached: otherwise the instance whose wait ends second could be served the other's scan.
    const probe = countingScanner({ ttlSeconds: 0 });
    const { a, b, lock } = pair(probe, { timeouts: [300, 300] });
    await admin.set(lock, 'stuck-without-expiry');
    results(await spread(a, b, 10));
    assert.equal(probe.calls(), 2);
  });

  it('a Redis that accepts connections but never answers costs a bounded wait, not the run', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const probe = countingScanner();
      const { a, b } = pair(probe, { url: `redis://127.0.0.1:${port}` });
      const runs = results(await spread(a, b, 10));
      assert.equal(probe.calls(), 2, 'one local scan per instance');
      for (const result of runs) assert.match(result.summary, /^scan [12] of /);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  describe('with Redis killed', () => {
    let doomed: RedisServer;
    let watcher: Redis;
    afterEach(async () => {
      watcher?.disconnect();
      await doomed?.stop();
    });

    it('runs still succeed, each instance scanning locally', async () => {
      doomed = await startRedis();
      const probe = countingScanner();
      const { a, b } = pair(probe, { url: doomed.url });
      await a.run('token', 'warm-up'); // connections up before the crash
      await doomed.kill();
      const runs = results(await spread(a, b, 20));
      assert.equal(runs.length, 20);
    });

    it('an instance waiting on the lock when Redis dies scans locally', async () => {
      doomed = await startRedis();
      watcher = new Redis(doomed.url);
      const probe = countingScanner({ gated: true });
      const { a, b, waiting } = pair(probe, { url: doomed.url });
      const holder = a.run('token', SUBJECT);
      await probe.started;
      const waiter = b.run('token', SUBJECT);
      await waiting(1, watcher);
      watcher.disconnect();
      await doomed.kill();
      const run = await waiter;
      assert.equal(run.result.summary, `scan 2 of ${SUBJECT}`);
      probe.open();
      assert.equal((await holder).result.summary, `scan 1 of ${SUBJECT}`);
    });
  });
});
