/** Which state the service opens from its configuration, and what it says when it cannot. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ConfigError, parseConfig } from '../../src/config.js';
import { openState, StateError } from '../../src/state/open.js';
import type { Watch } from '../../src/watch/model.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, warn: (_fields: object, message: string) => void warnings.push(message) };
}

describe('openState', () => {
  let dir: string;
  let redis: RedisServer;
  let evicting: RedisServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'state-test-'));
    [redis, evicting] = await Promise.all([startRedis(), startRedis({ maxmemoryPolicy: 'allkeys-lru' })]);
  });
  after(async () => {
    await Promise.all([redis.stop(), evicting.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('without REDIS_URL keeps payments in an embedded database under STATE_DIR, and survives reopening', async () => {
    const config = parseConfig({ PAY_TO, STATE_DIR: join(dir, 'one') });
    const state = await openState(config, recordingLog());
    assert.match(state.where, /embedded database in .*one/);
    assert.equal(state.flights, undefined, 'scans coalesce in this process only');
    await state.payments.claim('k', 'a');
    await state.payments.record('k', 'a', { state: 'spent' });
    await state.cache.set('scan:token:x', 'cached', 60_000);
    await state.close();
    const again = await openState(config, recordingLog());
    assert.deepEqual(await again.payments.claim('k', 'b'), { state: 'spent' });
    assert.equal(await again.cache.get('scan:token:x'), 'cached', 'the result cache is in STATE_DIR too');
    assert.equal(again.signingKey.kid, state.signingKey.kid, 'the key is kept in STATE_DIR');
    await again.close();
  });

  it('STATE_STORE=memory keeps everything in this process: nothing in STATE_DIR, nothing left after a restart', async () => {
    const stateDir = join(dir, 'memory');
    const config = parseConfig({
      RISK_SCAN_MODE: 'sandbox',
      STATE_DIR: stateDir,
      STATE_STORE: 'memory',
      MAX_WATCHES: '1',
    });
    const state = await openState(config, recordingLog());
    assert.match(state.where, /memory of this process/);
    assert.equal(state.flights, undefined, 'scans coalesce in this process only');
    await state.payments.claim('k', 'a');
    await state.payments.record('k', 'a', { state: 'spent' });
    assert.deepEqual(await state.payments.claim('k', 'b'), { state: 'spent' });
    await state.cache.set('scan:token:x', 'cached', 60_000);
    assert.equal(await state.cache.get('scan:token:x'), 'cached');
    const watch = aWatch();
    assert.deepEqual(await state.watches.create(watch), watch);
    assert.equal(await state.watches.room('another'), 'service_full', 'the configured caps (MAX_WATCHES)');
    await state.close();
    const again = await openState(config, recordingLog());
    assert.deepEqual(await again.payments.claim('k', 'b'), { state: 'claimed' });
    assert.equal(await again.cache.get('scan:token:x'), undefined);
    assert.equal(await again.watches.get(watch.id), null);
    assert.notEqual(again.signingKey.kid, state.signingKey.kid, 'a key made at start, lost at exit');
    await again.close();
    await assert.rejects(readdir(stateDir), { code: 'ENOENT' }, 'nothing was written to STATE_DIR');
  });

  it('STATE_STORE and REDIS_URL must agree: a ConfigError says which to unset', () => {
    assert.throws(
      () => parseConfig({ PAY_TO, STATE_STORE: 'redis' }),
      (e: Error) => {
        return e instanceof ConfigError && /STATE_STORE=redis needs REDIS_URL/.test(e.message);
      },
    );
    for (const store of ['memory', 'disk']) {
      assert.throws(
        () => parseConfig({ PAY_TO, STATE_STORE: store, REDIS_URL: redis.url }),
        (e: Error) => e instanceof ConfigError && /cannot be used with REDIS_URL/.test(e.message),
      );
    }
    assert.throws(
      () => parseConfig({ PAY_TO, STATE_STORE: 'memory' }),
      (e: Error) =>
        e instanceof ConfigError && /STATE_STORE=memory cannot take real payments/.test(e.message),
      'real payments are never kept in memory alone',
    );
    assert.equal(parseConfig({ RISK_SCAN_MODE: 'sandbox', STATE_STORE: 'memory' }).stateStore, 'memory');
    assert.equal(parseConfig({ PAY_TO, REDIS_URL: redis.url }).stateStore, 'redis');
    assert.equal(parseConfig({ PAY_TO }).stateStore, 'disk');
  });

  it('a STATE_DIR that cannot be a directory is a StateError naming STATE_DIR', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    await assert.rejects(openState(parseConfig({ PAY_TO, STATE_DIR: file }), recordingLog()), (e: Error) => {
      return e instanceof StateError && /Set STATE_DIR to a writable directory/.test(e.message);
    });
  });

  it('with REDIS_URL shares payments, cache and single flight on Redis, warning when Redis does not persist', async () => {
    const log = recordingLog();
    const state = await openState(parseConfig({ PAY_TO, REDIS_URL: redis.url }), log);
    assert.match(state.where, /^Redis at 127\.0\.0\.1:\d+$/);
    assert.ok(state.flights, 'single flight across instances');
    await state.cache.set('x', 'cached', 60_000);
    assert.equal(await state.cache.get('x'), 'cached');
    await state.payments.check();
    assert.equal(log.warnings.length, 1);
    assert.match(log.warnings[0]!, /appendonly yes/);
    await state.close();
  });

  it('refuses a Redis that may evict payment keys, naming maxmemory-policy', async () => {
    await assert.rejects(
      openState(parseConfig({ PAY_TO, REDIS_URL: evicting.url }), recordingLog()),
      (e: Error) => {
        return e instanceof StateError && /maxmemory-policy .*allkeys-lru.*noeviction/.test(e.message);
      },
    );
  });

  it('opens the watches next to the payments, in the same STATE_DIR, and closes them with it', async () => {
    const config = parseConfig({ PAY_TO, STATE_DIR: join(dir, 'watches') });
    const state = await openState(config, recordingLog(), { maxWatches: 1, maxWatchesPerSubject: 1 });
    const watch = aWatch();
    assert.deepEqual(await state.watches.create(watch), watch);
    assert.equal(await state.watches.room('another'), 'service_full', 'the caps given are the caps kept');
    await state.close();
    await assert.rejects(
      state.watches.get(watch.id).then(() => state.watches.check()),
      /closed/,
    );
    const again = await openState(config, recordingLog());
    assert.deepEqual(await again.watches.get(watch.id), watch);
    await again.close();
  });

  it('with REDIS_URL keeps the watches on Redis, where every instance sees them', async () => {
    const config = parseConfig({ PAY_TO, REDIS_URL: redis.url });
    const [one, two] = [await openState(config, recordingLog()), await openState(config, recordingLog())];
    const watch = aWatch();
    await one.watches.create(watch);
    assert.deepEqual(await two.watches.get(watch.id), watch);
    await Promise.all([one.close(), two.close()]);
  });

  it('with REDIS_URL closes at once while Redis is away, its delivery worker running', async () => {
    const away = await startRedis();
    try {
      const state = await openState(parseConfig({ PAY_TO, REDIS_URL: away.url }), recordingLog());
      await state.watches.create(aWatch());
      const probe = new Redis(away.url);
      probe.on('error', () => {});
      await probe.ping();
      // An outage, not a blip: the worker has gone back to waiting for jobs on a Redis that
      // is gone by the time the probe, like every client, has failed to reconnect a few times.
      const outage = new Promise<void>((resolve) => {
        let retries = 0;
        probe.on('reconnecting', () => {
          if (++retries === 4) resolve();
        });
      });
      await away.kill();
      await outage;
      probe.disconnect();
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        state.close().then(() => 'closed'),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STILL_WAITING_MS, 'still waiting for Redis');
        }),
      ]);
      clearTimeout(timer);
      assert.equal(outcome, 'closed', 'a stop during an outage is not held by the outage');
    } finally {
      await away.stop();
    }
  });
});

/** Far beyond what closing takes (milliseconds); only a close waiting on Redis gets there. */
const STILL_WAITING_MS = 30_000;

function aWatch(): Watch {
  const now = Date.now();
  return {
    id: randomUUID(),
    kind: 'token',
    subject: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    webhook: 'http://127.0.0.1:9/hook',
    hours: 1,
    createdAt: now,
    expiresAt: now + 3_600_000,
    status: 'active',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    latest: { risk_score: 0, flags: [], confidence: 1, summary: 's', recommendation: 'r', reasoning: [] },
    version: 0,
  };
}
