/**
 * The behaviour every result cache must have, run against each backend (memory, LMDB, Redis).
 * Memory's and LMDB's time is a fake clock; Redis's expiry is shown by waiting past a short PX
 * (waiting longer is only safer).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CacheStore } from '../../src/scans/cache-store.js';

export interface CacheBackend {
  /** A new, empty cache. */
  open(): CacheStore | Promise<CacheStore>;
  /** Lets at least `ms` pass for the cache. */
  pass(ms: number): Promise<void>;
  /**
   * A new, empty cache that holds `maxEntries` at most; absent when the cache's bound is not its
   * own (Redis: the server's memory, set by its operator).
   */
  bounded?(maxEntries: number): CacheStore | Promise<CacheStore>;
}

export function cacheContract(name: string, backend: () => CacheBackend): void {
  describe(`${name} result cache`, () => {
    it('gives back what was set, and nothing for a key never set', async () => {
      const { open } = backend();
      const cache = await open();
      await cache.set('scan:token:a', '{"a":1}', 60_000);
      assert.equal(await cache.get('scan:token:a'), '{"a":1}');
      assert.equal(await cache.get('scan:token:b'), undefined);
    });

    it('a second set replaces the value', async () => {
      const cache = await backend().open();
      await cache.set('k', 'first', 60_000);
      await cache.set('k', 'second', 60_000);
      assert.equal(await cache.get('k'), 'second');
    });

    it('a value is gone once its TTL has passed', async () => {
      const { open, pass } = backend();
      const cache = await open();
      await cache.set('short', 'v', 20);
      await cache.set('long', 'w', 60_000);
      await pass(20);
      assert.equal(await cache.get('short'), undefined);
      assert.equal(await cache.get('long'), 'w');
    });

    it('a TTL of 0 stores nothing', async () => {
      const cache = await backend().open();
      await cache.set('k', 'v', 0);
      assert.equal(await cache.get('k'), undefined);
    });

    const { bounded } = backend();
    it('holds no more than its bound: the latest value set is kept', {
      skip: bounded === undefined ? 'its bound is not its own (the server holding it bounds it)' : false,
    }, async () => {
      const cache = await (bounded as NonNullable<CacheBackend['bounded']>)(5);
      for (let i = 0; i < 12; i++) await cache.set(`k${i}`, `v${i}`, 60_000 + i);
      const kept = [];
      for (let i = 0; i < 12; i++) if ((await cache.get(`k${i}`)) !== undefined) kept.push(i);
      assert.equal(kept.length, 5, `kept: ${kept.join(',')}`);
      assert.ok(kept.includes(11), 'the latest value set is kept');
    });
  });
}
