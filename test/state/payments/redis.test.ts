/**
 * The Redis payment store against a real redis-server (one for this file): the shared contract,
 * then what only a shared store faces: two instances racing, Redis dying and coming back, and a
 * Redis configured to evict.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { createRedisPaymentStore } from '../../../src/state/payments/redis.js';
import { connectRedis } from '../../../src/state/redis-client.js';
import { assertNoEviction } from '../../../src/state/redis-eviction.js';
import type { PaymentStore } from '../../../src/x402/payment-store.js';
import {
  paymentStoreContract,
  pending,
  response,
  type StoreTiming,
} from '../../helpers/payment-store-contract.js';
import { startRedis } from '../../helpers/redis-server.js';

const server = await startRedis();
const clients: Redis[] = [];
after(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

const client = async () => {
  const redis = await connectRedis(server.url);
  clients.push(redis);
  return redis;
};
const prefixes = new WeakMap<PaymentStore, string>();
const open = async (timing: StoreTiming, prefix = `test:${randomUUID()}:`) => {
  const store = createRedisPaymentStore({ redis: await client(), ownsClient: true, prefix, ...timing });
  prefixes.set(store, prefix);
  return store;
};

paymentStoreContract('redis', {
  open: (timing) => open(timing),
  async reopen(store, timing) {
    await store.close();
    return open(timing, prefixes.get(store));
  },
});

describe('redis payment store: shared by several instances', () => {
  it('two instances racing 50 claims of one payment: exactly one wins', async () => {
    const prefix = `test:${randomUUID()}:`;
    const stores = [await open({ now: Date.now }, prefix), await open({ now: Date.now }, prefix)];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => stores[i % 2]!.claim('k', `h${i}`)),
    );
    assert.equal(outcomes.filter((o) => o.state === 'claimed').length, 1);
    assert.equal(outcomes.filter((o) => o.state === 'in_flight').length, 49);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('what one instance records, the other sees', async () => {
    const prefix = `test:${randomUUID()}:`;
    const [a, b] = [await open({ now: Date.now }, prefix), await open({ now: Date.now }, prefix)];
    await a.claim('k', 'x');
    assert.equal(await b.record('k', 'y', { state: 'spent' }), false, 'not the holder');
    await a.record('k', 'x', { state: 'settled', response });
    assert.deepEqual(await b.claim('k', 'y'), { state: 'settled', response });
    await Promise.all([a.close(), b.close()]);
  });

  it('every payment key expires in Redis too, so nothing is kept forever', async () => {
    const redis = await client();
    const prefix = `test:${randomUUID()}:`;
    const store = createRedisPaymentStore({
      redis,
      prefix,
      inFlightTtlMs: 1000,
      settledTtlMs: 10_000,
      now: () => 0,
    });
    await store.claim('claimed', 'a');
    await store.claim('kept', 'a');
    await store.markSending('kept', 'a', pending(null));
    await store.claim('settled', 'a');
    await store.record('settled', 'a', { state: 'settled', response });
    for (const key of ['claimed', 'kept', 'settled']) {
      const ttl = await redis.pttl(prefix + key);
      assert.ok(ttl > 0, `${key} has an expiry (${ttl})`);
    }
    assert.ok(
      (await redis.pttl(`${prefix}kept`)) > (await redis.pttl(`${prefix}claimed`)),
      'as long as its kept result',
    );
  });
});

describe('redis eviction policy', () => {
  it('accepts noeviction and refuses a policy that could evict payment keys, naming the setting', async () => {
    const redis = await client();
    await assertNoEviction(redis);
    try {
      for (const policy of ['allkeys-lru', 'volatile-ttl']) {
        await redis.config('SET', 'maxmemory-policy', policy);
        await assert.rejects(assertNoEviction(redis), {
          message: new RegExp(
            `^Redis maxmemory-policy is "${policy}": .*set maxmemory-policy to noeviction$`,
          ),
        });
      }
    } finally {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
    }
  });
});

// Last: it kills the file's server.
describe('redis payment store when Redis goes away', () => {
  it('fails fast while Redis is down and works again, unchanged, once it is back', {
    timeout: 30_000,
  }, async () => {
    const store = await open({ now: Date.now });
    assert.deepEqual(await store.claim('before', 'a'), { state: 'claimed' });
    await server.kill();
    await assert.rejects(store.claim('k', 'a'), 'a claim is refused, not left waiting');
    await assert.rejects(store.check(), { message: /^Redis payment store unavailable: / });
    await server.restart();
    await untilUsable(store);
    assert.deepEqual(await store.claim('k', 'a'), { state: 'claimed' });
    assert.equal(await store.record('k', 'a', { state: 'spent' }), true);
    await store.close();
  });
});

/** The client reconnects by itself; wait for it (bounded by the test's timeout). */
async function untilUsable(store: PaymentStore): Promise<void> {
  for (;;) {
    try {
      return await store.check();
    } catch {
      await sleep(50);
    }
  }
}
