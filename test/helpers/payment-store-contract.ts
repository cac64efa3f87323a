/**
 * The behaviour every payment store must have, run against each backend (memory, embedded,
 * Redis) by its own test file. Time is a fake clock the store is given, so expiry is tested
 * without waiting.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PaymentStore, PendingSettlement, StoredResponse } from '../../src/x402/payment-store.js';

export interface StoreTiming {
  readonly inFlightTtlMs?: number;
  readonly settledTtlMs?: number;
  readonly now: () => number;
}

export interface StoreBackend {
  /** A new, empty store (its own namespace or directory). */
  open(timing: StoreTiming): Promise<PaymentStore>;
  /** Closes `store` and opens the same state again, as a restarted process would; absent when not durable. */
  reopen?(store: PaymentStore, timing: StoreTiming): Promise<PaymentStore>;
}

export const response: StoredResponse = {
  resource: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: '{"risk_score":0}',
};

export const pending = (signature: string | null, body = response.body): PendingSettlement => ({
  response: { ...response, body },
  receipt: { version: 2, network: 'solana', payer: 'payer' },
  signature,
  blockhash: 'h',
});

export function paymentStoreContract(name: string, backend: StoreBackend): void {
  const opened: PaymentStore[] = [];
  const clock = () => {
    const time = { now: 0 };
    return { time, now: () => time.now };
  };
  const open = async (timing: Partial<StoreTiming> = {}) => {
    const store = await backend.open({ now: Date.now, ...timing });
    opened.push(store);
    return store;
  };
  after(async () => {
    await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
  });

  describe(`${name} payment store`, () => {
    it('claims once: a second claim is in flight, a settled payment returns its response', async () => {
      const store = await open();
      assert.deepEqual(await store.claim('k', 'a'), { state: 'claimed' });
      assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' });
      assert.equal(await store.record('k', 'a', { state: 'settled', response }), true);
      assert.deepEqual(await store.claim('k', 'c'), { state: 'settled', response });
    });

    it('of 50 concurrent claims of one payment exactly one wins', async () => {
      const store = await open();
      const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim('k', `h${i}`)));
      assert.equal(outcomes.filter((o) => o.state === 'claimed').length, 1);
      assert.equal(outcomes.filter((o) => o.state === 'in_flight').length, 49);
    });

    it('a released claim can be claimed again', async () => {
      const store = await open();
      await store.claim('k', 'a');
      await store.release('k', 'a');
      assert.deepEqual(await store.claim('k', 'b'), { state: 'claimed' });
    });

    it('only the holder of a claim can release it, keep its result or record what it became', async () => {
      const store = await open();
      await store.claim('k', 'a');
      await store.release('k', 'intruder');
      assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' }, 'not released by another');
      assert.equal(await store.markSending('k', 'intruder', pending(null)), false);
      assert.equal(await store.record('k', 'intruder', { state: 'settled', response }), false);
      assert.deepEqual(await store.claim('k', 'b'), { state: 'in_flight' }, 'nothing recorded by another');
      assert.equal(await store.markSending('absent', 'a', pending(null)), false, 'no claim, nothing kept');
    });

    it('a claim that expired and was taken over can no longer record a sale', async () => {
      const { time, now } = clock();
      const store = await open({ inFlightTtlMs: 1000, now });
      await store.claim('k', 'slow');
      time.now = 1001;
      assert.deepEqual(await store.claim('k', 'next'), { state: 'claimed' });
      assert.equal(await store.record('k', 'slow', { state: 'settled', response }), false);
      assert.equal(await store.record('k', 'next', { state: 'settled', response }), true);
    });

    it('an abandoned claim frees itself after its TTL; a settled response outlives it', async () => {
      const { time, now } = clock();
      const store = await open({ inFlightTtlMs: 1000, settledTtlMs: 10_000, now });
      await store.claim('abandoned', 'a');
      await store.claim('paid', 'b');
      await store.record('paid', 'b', { state: 'settled', response });
      time.now = 1001;
      assert.deepEqual(await store.claim('abandoned', 'c'), { state: 'claimed' });
      assert.equal((await store.claim('paid', 'c')).state, 'settled');
      time.now = 20_000;
      assert.equal((await store.claim('paid', 'c')).state, 'claimed');
    });

    it('a payment settled elsewhere is kept as spent', async () => {
      const store = await open();
      await store.claim('k', 'a');
      assert.equal(await store.record('k', 'a', { state: 'spent' }), true);
      assert.deepEqual(await store.claim('k', 'b'), { state: 'spent' });
    });

    it('a pending settlement is checked by one request at a time', async () => {
      const store = await open();
      await store.claim('k', 'a');
      await store.record('k', 'a', { state: 'pending', pending: pending(null) });
      assert.equal((await store.claim('k', 'b')).state, 'pending');
      assert.ok(await store.claimPending('k', 'b'), 'the first checker gets it');
      assert.equal(await store.claimPending('k', 'c'), null, 'a second checker waits');
      assert.equal((await store.claim('k', 'c')).state, 'in_flight');
      await store.record('k', 'b', { state: 'pending', pending: pending('sig') });
      assert.equal((await store.claimPending('k', 'c'))?.signature, 'sig');
    });

    it('a pending result whose checker vanished comes back: a paid result is never lost', async () => {
      const { time, now } = clock();
      const store = await open({ inFlightTtlMs: 1000, now });
      await store.claim('k', 'a');
      await store.record('k', 'a', { state: 'pending', pending: pending('sig') });
      assert.ok(await store.claimPending('k', 'crashed'), 'claimed for a re-check');
      time.now = 1001;
      const again = await store.claim('k', 'b');
      assert.equal(again.state, 'pending');
      assert.equal((await store.claimPending('k', 'b'))?.signature, 'sig');
    });

    it('a result kept before settling outlives a holder that vanished: it comes back pending, never free', async () => {
      const { time, now } = clock();
      const store = await open({ inFlightTtlMs: 1000, settledTtlMs: 10_000, now });
      await store.claim('k', 'crashed');
      assert.equal(await store.markSending('k', 'crashed', pending(null, '{"kept":true}')), true);
      assert.deepEqual(
        await store.claim('k', 'b'),
        { state: 'in_flight' },
        'still its holder’s while it lives',
      );
      time.now = 1001;
      const again = await store.claim('k', 'b');
      assert.equal(again.state, 'pending');
      assert.equal(again.state === 'pending' && again.pending.response.body, '{"kept":true}');
    });

    it('a kept result is replaced by what the claim became', async () => {
      const { time, now } = clock();
      const store = await open({ inFlightTtlMs: 1000, now });
      await store.claim('k', 'a');
      await store.markSending('k', 'a', pending(null));
      assert.equal(await store.record('k', 'a', { state: 'settled', response }), true);
      time.now = 5000;
      assert.deepEqual(await store.claim('k', 'b'), { state: 'settled', response });
    });

    it('keeps large and non-ASCII responses byte for byte, and each payment apart', async () => {
      const store = await open();
      const big = { ...response, body: JSON.stringify({ text: 'é✓😀'.repeat(20_000) }) };
      await store.claim('big', 'a');
      await store.claim('small', 'b');
      await store.record('big', 'a', { state: 'settled', response: big });
      await store.record('small', 'b', { state: 'settled', response });
      assert.deepEqual(await store.claim('big', 'c'), { state: 'settled', response: big });
      assert.deepEqual(await store.claim('small', 'c'), { state: 'settled', response });
    });

    it('reports itself usable', async () => {
      const store = await open();
      await store.check();
    });

    if (backend.reopen !== undefined) {
      const reopen = backend.reopen.bind(backend);
      it('after a restart: settled, spent, pending and kept results are all still there', async () => {
        const { time, now } = clock();
        const timing = { inFlightTtlMs: 1000, settledTtlMs: 100_000, now };
        const store = await open(timing);
        for (const k of ['settled', 'spent', 'pending', 'sending', 'claimed']) await store.claim(k, 'a');
        await store.record('settled', 'a', { state: 'settled', response });
        await store.record('spent', 'a', { state: 'spent' });
        await store.record('pending', 'a', { state: 'pending', pending: pending('sig') });
        await store.markSending('sending', 'a', pending(null, '{"kept":true}'));
        const restarted = await reopen(store, timing);
        opened.push(restarted);
        assert.deepEqual(await restarted.claim('settled', 'b'), { state: 'settled', response });
        assert.deepEqual(await restarted.claim('spent', 'b'), { state: 'spent' });
        assert.equal((await restarted.claim('pending', 'b')).state, 'pending');
        assert.deepEqual(
          await restarted.claim('claimed', 'b'),
          { state: 'in_flight' },
          'a claim outlives a restart',
        );
        assert.deepEqual(await restarted.claim('sending', 'b'), { state: 'in_flight' });
        time.now = 1001;
        const kept = await restarted.claim('sending', 'b');
        assert.equal(kept.state === 'pending' && kept.pending.response.body, '{"kept":true}');
        assert.deepEqual(await restarted.claim('claimed', 'b'), { state: 'claimed' });
      });
    }
  });
}
