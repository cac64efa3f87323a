/**
 * The fact store's contract on each backend, then what only the durable ones promise: LMDB's facts
 * survive a restart (the store closed and opened again on its directory), and two instances on one
 * Redis share them.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { type LmdbFactStore, openLmdbFactStore } from '../../../src/state/facts/lmdb.js';
import { createMemoryFactStore } from '../../../src/state/facts/memory.js';
import { createRedisFactStore } from '../../../src/state/facts/redis.js';
import { factStoreContract } from '../../helpers/fact-store-contract.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';

const freshDir = () => mkdtemp(join(tmpdir(), 'facts-'));
const finalized = (value: string, slot: number) => ({ value, slot, commitment: 'finalized' as const });

factStoreContract('memory', () => ({
  open: async (maxEntries) => createMemoryFactStore(maxEntries ? { maxEntries } : {}),
}));

describe('embedded (lmdb) fact store', () => {
  const opened: LmdbFactStore[] = [];
  after(async () => {
    for (const store of opened) await store.close();
  });
  factStoreContract('lmdb', () => ({
    open: async (maxEntries) => {
      const store = await openLmdbFactStore({
        path: await freshDir(),
        ...(maxEntries ? { maxEntries } : {}),
      });
      opened.push(store);
      return store;
    },
  }));

  it('facts survive a restart: closed, opened again on the directory, they are there, bound and all', async () => {
    const path = await freshDir();
    const first = await openLmdbFactStore({ path, maxEntries: 2 });
    await first.put('Sig', 'transaction', finalized('{"kept":true}', 42));
    await first.put('W', 'first-funding', finalized('{"funder":"F"}', 43));
    await first.close();
    const again = await openLmdbFactStore({ path, maxEntries: 2 });
    try {
      assert.deepEqual(await again.get('Sig', 'transaction'), { value: '{"kept":true}', slot: 42 });
      // The order survives too: the oldest kept before the restart is the first evicted after it.
      await again.put('X', 'f', finalized('"x"', 44));
      assert.equal(await again.get('Sig', 'transaction'), undefined);
      assert.deepEqual(await again.get('W', 'first-funding'), { value: '{"funder":"F"}', slot: 43 });
    } finally {
      await again.close();
    }
  });
});

describe('Redis fact store', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  const client = () => {
    const c = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    clients.push(c);
    return c;
  };
  let prefixes = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await redis?.stop();
  });

  factStoreContract('redis', () => ({
    open: async (maxEntries) =>
      createRedisFactStore({
        redis: client(),
        prefix: `test:${++prefixes}:`,
        ...(maxEntries ? { maxEntries } : {}),
      }),
  }));

  it('two instances on one Redis share their facts and one bound', async () => {
    const prefix = 'test:shared:';
    const one = createRedisFactStore({ redis: client(), prefix, maxEntries: 3 });
    const two = createRedisFactStore({ redis: client(), prefix, maxEntries: 3 });
    await one.put('Sig', 'transaction', finalized('{"by":"one"}', 9));
    assert.deepEqual(await two.get('Sig', 'transaction'), { value: '{"by":"one"}', slot: 9 });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).put(`k${i}`, 'f', finalized(`${i}`, i))),
    );
    const size = await client().zcard(`${prefix}order`);
    assert.equal(size, 3, 'writing at once, the instances never overshoot the bound');
    assert.equal((await client().keys(`${prefix}f:*`)).length, 3);
  });
});
