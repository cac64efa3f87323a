/**
 * The behaviour every fact store must have, run against each backend (memory, LMDB, Redis): what
 * was kept comes back with the slot it was read at; a fact read at a slot not yet finalized is
 * refused; at most `maxEntries` are kept, the one kept longest ago evicted first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FactStore, ReadFact } from '../../src/scans/fact-store.js';

export interface FactBackend {
  /** A new, empty store keeping at most `maxEntries` facts. */
  open(maxEntries?: number): Promise<FactStore>;
}

const finalized = (value: string, slot = 100): ReadFact => ({ value, slot, commitment: 'finalized' });

export function factStoreContract(name: string, backend: () => FactBackend): void {
  describe(`${name} fact store`, () => {
    it('gives back a kept fact with the slot it was read at, by address and fact', async () => {
      const store = await backend().open();
      assert.equal(await store.put('Sig1', 'transaction', finalized('{"slot":7}', 7)), true);
      assert.deepEqual(await store.get('Sig1', 'transaction'), { value: '{"slot":7}', slot: 7 });
      assert.equal(await store.get('Sig1', 'first-funding'), undefined, 'another fact of the address');
      assert.equal(await store.get('Sig2', 'transaction'), undefined, 'the fact of another address');
    });

    it('refuses a fact read at a slot not yet finalized', async () => {
      const store = await backend().open();
      for (const commitment of ['confirmed', 'processed', null] as const) {
        assert.equal(await store.put('W', 'first-funding', { value: '"x"', slot: 5, commitment }), false);
        assert.equal(await store.get('W', 'first-funding'), undefined, String(commitment));
      }
    });

    it('a fact kept again replaces the one before', async () => {
      const store = await backend().open();
      await store.put('A', 'f', finalized('"one"', 1));
      await store.put('A', 'f', finalized('"two"', 2));
      assert.deepEqual(await store.get('A', 'f'), { value: '"two"', slot: 2 });
    });

    it('keeps at most its bound, evicting the one kept longest ago first', async () => {
      const store = await backend().open(3);
      for (const a of ['a', 'b', 'c']) await store.put(a, 'f', finalized(`"${a}"`));
      // Kept again: `a` is now the newest, so `b` is the oldest.
      await store.put('a', 'f', finalized('"a2"'));
      await store.put('d', 'f', finalized('"d"'));
      const left = [];
      for (const a of ['a', 'b', 'c', 'd']) if ((await store.get(a, 'f')) !== undefined) left.push(a);
      assert.deepEqual(left, ['a', 'c', 'd']);
      await store.put('e', 'f', finalized('"e"'));
      await store.put('g', 'f', finalized('"g"'));
      const now = [];
      for (const a of ['a', 'c', 'd', 'e', 'g']) if ((await store.get(a, 'f')) !== undefined) now.push(a);
      assert.deepEqual(now, ['d', 'e', 'g']);
    });

    it('keeps values whole: JSON text with any characters', async () => {
      const store = await backend().open();
      const value = JSON.stringify({ logs: ['Program log: \u2713 “quoted”', 'x'.repeat(20_000)] });
      await store.put('Big', 'transaction', finalized(value, 123_456_789));
      assert.deepEqual(await store.get('Big', 'transaction'), { value, slot: 123_456_789 });
    });
  });
}
