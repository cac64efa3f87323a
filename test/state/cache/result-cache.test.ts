/**
 * The result cache's contract (test/helpers/result-cache-contract.ts) run against memory and
 * Redis, and what Redis adds: sharing between instances, failing fast while down.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createMemoryCache } from '../../../src/state/cache/memory.js';
import { createRedisCache } from '../../../src/state/cache/redis.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';
import { cacheContract } from '../../helpers/result-cache-contract.js';

cacheContract('memory', () => {
  let now = 1_000;
  return {
    open: () => createMemoryCache({ now: () => now }),
    pass: async (ms) => {
      now += ms;
    },
  };
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
