import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore } from '../../src/x402/payment-store.js';

const response = {
  resource: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: '{"risk_score":0}',
};

describe('memory payment store', () => {
  it('claims once: a second claim is in flight, a settled payment returns its response', async () => {
    const store = createMemoryPaymentStore();
    assert.deepEqual(await store.claim('k'), { state: 'claimed' });
    assert.deepEqual(await store.claim('k'), { state: 'in_flight' });
    await store.complete('k', response);
    assert.deepEqual(await store.claim('k'), { state: 'settled', response });
  });

  it('a released claim can be claimed again', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k');
    await store.release('k');
    assert.deepEqual(await store.claim('k'), { state: 'claimed' });
  });

  it('an abandoned claim frees itself after its TTL; a settled response outlives it', async () => {
    let now = 0;
    const store = createMemoryPaymentStore({ inFlightTtlMs: 1000, settledTtlMs: 10_000, now: () => now });
    await store.claim('abandoned');
    await store.claim('paid');
    await store.complete('paid', response);
    now = 1001;
    assert.deepEqual(await store.claim('abandoned'), { state: 'claimed' });
    assert.equal((await store.claim('paid')).state, 'settled');
    now = 20_000;
    assert.equal((await store.claim('paid')).state, 'claimed');
  });

  it('a pending settlement is checked by one request at a time', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k');
    await store.markPending('k', { response, signature: null, blockhash: 'h' });
    assert.equal((await store.claim('k')).state, 'pending');
    assert.ok(await store.claimPending('k'));
    assert.equal(await store.claimPending('k'), null, 'a second checker waits');
    await store.markPending('k', { response, signature: 'sig', blockhash: 'h' });
    assert.equal((await store.claimPending('k'))?.signature, 'sig');
  });

  it('evicts the oldest settled entries past its size, never an in-flight claim', async () => {
    const store = createMemoryPaymentStore({ maxEntries: 2 });
    await store.claim('in-flight');
    for (const k of ['a', 'b', 'c']) {
      await store.claim(k);
      await store.complete(k, response);
    }
    assert.equal((await store.claim('in-flight')).state, 'in_flight');
    assert.equal((await store.claim('c')).state, 'settled');
  });
});
