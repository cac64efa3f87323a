/**
 * The result cache's contract (test/helpers/result-cache-contract.ts) run against memory, LMDB
 * and Redis; what LMDB adds (kept over a restart, expired entries removed from the disk); what
 * Redis adds (sharing between instances, failing fast while down).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LMDB_CACHE_DBS, type LmdbCache, openLmdbCache } from '../../../src/state/cache/lmdb.js';
import { createMemoryCache } from '../../../src/state/cache/memory.js';
import { createRedisCache } from '../../../src/state/cache/redis.js';
import { useEnvironment } from '../../../src/state/lmdb-environment.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';
import { cacheContract } from '../../helpers/result-cache-contract.js';

cacheContract('memory', () => {
  let now = 1_000;
  return {
    open: () => createMemoryCache({ now: () => now }),
    bounded: (maxEntries) => createMemoryCache({ maxEntries, now: () => now }),
    pass: async (ms) => {
      now += ms;
    },
  };
});

describe('in LMDB (STATE_DIR)', () => {
  const dirs: string[] = [];
  const caches: LmdbCache[] = [];
  let clock = 1_000;
  const openIn = async (dir: string | null, maxEntries?: number) => {
    const path = dir ?? (await mkdtemp(join(tmpdir(), 'lmdb-cache-')));
    if (dir === null) dirs.push(path);
    const cache = await openLmdbCache({ path, now: () => clock, ...(maxEntries ? { maxEntries } : {}) });
    caches.push(cache);
    return cache;
  };
  after(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  cacheContract('LMDB', () => ({
    open: () => openIn(null),
    bounded: (maxEntries) => openIn(null, maxEntries),
    pass: async (ms) => {
      clock += ms;
    },
  }));

  it('keeps its values over a restart (the directory opened again)', async () => {
    const first = await openIn(null);
    await first.set('k', 'v', 60_000);
    await first.close();
    const again = await openIn(dirs.at(-1) as string);
    assert.equal(await again.get('k'), 'v');
  });

  it('removes expired entries from the disk, not only from what get answers', async () => {
    const cache = await openIn(null);
    const dir = dirs.at(-1) as string;
    await cache.set('gone', 'v', 10);
    clock += 10;
    await cache.set('fresh', 'w', 60_000);
    const environment = await useEnvironment(dir);
    try {
      const values = environment.root.openDB({ name: LMDB_CACHE_DBS.values, encoding: 'json' });
      assert.deepEqual(Array.from(values.getKeys({})), ['fresh']);
    } finally {
      await environment.close();
    }
  });
});

describe('on Redis', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  let opened = 0;
  const client = () => {
    const redis = new Redis(server.url);
    clients.push(redis);
    return redis;
  };
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    for (const redis of clients) redis.disconnect();
    await server.stop();
  });

  // Each cache its own prefix, so the tests share one server and never each other's keys.
  cacheContract('Redis', () => ({
    open: () => createRedisCache({ redis: client(), prefix: `test:${++opened}:` }),
    // Redis expires a key on access once its PX is past; the margin is for clock granularity.
    pass: (ms) => sleep(ms + 30),
  }));

  it('two caches on one Redis (two instances) share values; another prefix does not see them', async () => {
    const one = createRedisCache({ redis: client(), prefix: 'shared:' });
    const two = createRedisCache({ redis: client(), prefix: 'shared:' });
    const other = createRedisCache({ redis: client(), prefix: 'other:' });
    await one.set('k', 'v', 60_000);
    assert.equal(await two.get('k'), 'v');
    assert.equal(await other.get('k'), undefined);
  });

  it('a Redis that is down fails get and set within the command timeout instead of hanging', async () => {
    const down = await startRedis();
    const redis = new Redis(down.url);
    redis.on('error', () => undefined); // its reconnection attempts, expected here
    try {
      const cache = createRedisCache({ redis, commandTimeoutMs: 200 });
      await cache.set('k', 'v', 60_000);
      await down.kill();
      await assert.rejects(cache.get('k'));
      await assert.rejects(cache.set('k', 'v', 60_000));
    } finally {
      redis.disconnect();
      await down.stop();
    }
  });
});
