import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore } from '../../../src/state/payments/memory.js';
import { paymentStoreContract, response } from '../../helpers/payment-store-contract.js';

paymentStoreContract('memory', { open: async (timing) => createMemoryPaymentStore(timing) });

describe('memory payment store: its bound', () => {
  it('evicts the oldest settled entries past its size, never a claim in flight', async () => {
    const store = createMemoryPaymentStore({ maxEntries: 2 });
    await store.claim('in-flight', 'x');
    for (const k of ['a', 'b', 'c']) {
      await store.claim(k, k);
      await store.record(k, k, { state: 'settled', response });
    }
    assert.equal((await store.claim('in-flight', 'y')).state, 'in_flight');
    assert.equal((await store.claim('c', 'y')).state, 'settled');
  });
});
