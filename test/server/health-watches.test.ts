/**
 * /health's `watches` check: where the watches are kept and whether that store answers, as the
 * payment state's check says it for payments, with what the instance follows. Embedded, on Redis
 * (and Redis gone: down with the reason, the service degraded, then ok again once it is back),
 * and a watch store that fails on its own while the payments' answers.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Selling, selling } from '../../src/service/index.js';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { openLmdbWatchState } from '../../src/state/watches/lmdb.js';
import type { WatchState } from '../../src/watch/model.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

/** Polls /health (its store checks are cached for 2 s) until `accept` takes it. */
async function healthUntil(svc: TestService, accept: (health: any) => boolean): Promise<any> {
  for (;;) {
    const health = await jsonOf(await fetch(`${svc.url}/health`));
    if (accept(health)) return health;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('/health: the watches check', { timeout: 60_000 }, () => {
  let stub: FacilitatorStub;
  const started: TestService[] = [];
  /** A service taking payments (scanners), no RPC or WebSocket reached. */
  const start = async (env: Record<string, string> = {}, given: Omit<Selling, 'scanners'> = {}) => {
    const svc = await startTestService(
      {
        FACILITATOR_URLS: stub.url,
        SOLANA_RPC_URL: 'http://127.0.0.1:9',
        SOLANA_WS_URL: 'none',
        ...env,
      },
      { mode: selling(probeScanners(), given) },
    );
    started.push(svc);
    return svc;
  };
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER, 'ok');
  });
  after(async () => {
    for (const svc of started) await svc.close();
    await stub.close();
  });

  it('embedded: ok, kept in the embedded database beside the payments, following nothing yet', async () => {
    const health = await jsonOf(await fetch(`${(await start()).url}/health`));
    assert.equal(health.status, 'ok');
    assert.deepEqual(health.checks.watches, {
      status: 'ok',
      detail: health.checks.payment_state.detail,
      following: { subjects: 0, subscriptions: 0 },
    });
    assert.match(health.checks.watches.detail, /^embedded database in /);
  });

  describe('on Redis', () => {
    let redis: RedisServer;
    let svc: TestService;
    before(async () => {
      redis = await startRedis();
      svc = await start({ REDIS_URL: redis.url });
    });
    after(async () => {
      // Closed while Redis answers: a Redis-backed service's stop waits for Redis.
      started.splice(started.indexOf(svc), 1);
      await svc.close();
      await redis.stop();
    });

    it('ok, kept in Redis', async () => {
      const health = await jsonOf(await fetch(`${svc.url}/health`));
      assert.equal(health.checks.watches.status, 'ok');
      assert.match(health.checks.watches.detail, /^Redis at 127\.0\.0\.1:\d+$/);
      assert.equal(health.status, 'ok');
    });

    it('Redis gone: down with the reason and the service degraded, as for payments; ok once back', async () => {
      await redis.kill();
      const down = await healthUntil(svc, (h) => h.checks.watches.status === 'down');
      assert.match(down.checks.watches.detail, /^watches in Redis at 127\.0\.0\.1:\d+ unavailable: \S/);
      assert.equal(down.checks.payment_state.status, 'down');
      assert.equal(down.status, 'degraded');
      assert.deepEqual(down.checks.watches.following, { subjects: 0, subscriptions: 0 });
      await redis.restart();
      const back = await healthUntil(svc, (h) => h.checks.watches.status === 'ok');
      assert.equal(back.checks.payment_state.status, 'ok');
      assert.equal(back.status, 'ok');
    });
  });

  it('a watch store that fails while the payments’ answers: watches down, the service degraded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'health-watches-'));
    const real = await openLmdbWatchState(dir, {
      mode: 'mainnet',
      signingKey: signingKeyFromPem(generateKeyPem()),
      maxWatches: 10,
      maxWatchesPerSubject: 10,
    });
    // A fault injected into the one call the check makes.
    const failing: WatchState = {
      ...real,
      check: async () => {
        throw new Error('the disk is full');
      },
    };
    try {
      const svc = await start({}, { watches: { state: failing } });
      const health = await jsonOf(await fetch(`${svc.url}/health`));
      assert.equal(health.checks.payment_state.status, 'ok');
      assert.equal(health.checks.watches.status, 'down');
      assert.equal(
        health.checks.watches.detail,
        'watches in a watch state given by the caller unavailable: the disk is full',
      );
      assert.equal(health.status, 'degraded');
    } finally {
      await real.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
