import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore, type PendingSettlement } from '../../src/x402/payment-store.js';

const response = {
  resource: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: '{"risk_score":0}',
};

const pending = (signature: string | null): PendingSettlement => ({
  response,
  receipt: { version: 2, network: 'solana', payer: 'payer' },
  signature,
  blockhash: 'h',
});

describe('memory payment store', () => {
  it('claims once: a second claim is in flight, a settled payment returns its response', async () => {
    const store = createMemoryPaymentStore();
    assert.deepEqual(await store.claim('k', 'a'), { state: 'claimed' });
    assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' });
    assert.equal(await store.record('k', 'a', { state: 'settled', response }), true);
    assert.deepEqual(await store.claim('k', 'c'), { state: 'settled', response });
  });

  it('a released claim can be claimed again', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k', 'a');
    await store.release('k', 'a');
    assert.deepEqual(await store.claim('k', 'b'), { state: 'claimed' });
  });

  it('only the holder of a claim can release it or record what it became', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k', 'a');
    await store.release('k', 'intruder');
    assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' }, 'not released by another');
    assert.equal(await store.record('k', 'intruder', { state: 'settled', response }), false);
    assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' }, 'nothing recorded by another');
  });

  it('a claim that expired and was taken over can no longer record a sale', async () => {
    let now = 0;
    const store = createMemoryPaymentStore({ inFlightTtlMs: 1000, now: () => now });
    await store.claim('k', 'slow');
    now = 1001;
    assert.deepEqual(await store.claim('k', 'next'), { state: 'claimed' });
    assert.equal(await store.record('k', 'slow', { state: 'settled', response }), false);
    assert.equal(await store.record('k', 'next', { state: 'settled', response }), true);
  });

  it('an abandoned claim frees itself after its TTL; a settled response outlives it', async () => {
    let now = 0;
    const store = createMemoryPaymentStore({ inFlightTtlMs: 1000, settledTtlMs: 10_000, now: () => now });
    await store.claim('abandoned', 'a');
    await store.claim('paid', 'b');
    await store.record('paid', 'b', { state: 'settled', response });
    now = 1001;
    assert.deepEqual(await store.claim('abandoned', 'c'), { state: 'claimed' });
    assert.equal((await store.claim('paid', 'c')).state, 'settled');
    now = 20_000;
    assert.equal((await store.claim('paid', 'c')).state, 'claimed');
  });

  it('a payment settled elsewhere is kept as spent', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k', 'a');
    assert.equal(await store.record('k', 'a', { state: 'spent' }), true);
    assert.deepEqual(await store.claim('k', 'b'), { state: 'spent' });
  });

  it('a pending settlement is checked by one request at a time', async () => {
    const store = createMemoryPaymentStore();
    await store.claim('k', 'a');
    await store.record('k', 'a', { state: 'pending', pending: pending(null) });
    assert.equal((await store.claim('k', 'b')).state, 'pending');
    assert.ok(await store.claimPending('k', 'b'));
    assert.equal(await store.claimPending('k', 'c'), null, 'a second checker waits');
    assert.equal((await store.claim('k', 'c')).state, 'in_flight');
    await store.record('k', 'b', { state: 'pending', pending: pending('sig') });
    assert.equal((await store.claimPending('k', 'c'))?.signature, 'sig');
  });

  it('a pending result whose checker vanished comes back: a paid result is never lost', async () => {
    let now = 0;
    const store = createMemoryPaymentStore({ inFlightTtlMs: 1000, now: () => now });
    await store.claim('k', 'a');
    await store.record('k', 'a', { state: 'pending', pending: pending('sig') });
    assert.ok(await store.claimPending('k', 'crashed'));
    now = 1001;
    const again = await store.claim('k', 'b');
    assert.equal(again.state, 'pending');
    assert.equal((await store.claimPending('k', 'b'))?.signature, 'sig');
  });

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
