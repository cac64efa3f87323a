/**
 * The watch door's two checks, on a real embedded watch state: the work after settlement
 * (fulfil) creates a paid watch once and never one that has ended; the screen before payment is
 * bounded in number and in time, as an offer is free to ask for and a webhook check waits on DNS.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { canonicalOrder } from '../../../src/contract/watch-order.js';
import { generateKeyPem, signingKeyFromPem } from '../../../src/signing/key.js';
import { openLmdbWatchState } from '../../../src/state/watches/lmdb.js';
import { watchAnswer } from '../../../src/watch/door/answer.js';
import { createWatchFulfil } from '../../../src/watch/door/fulfil.js';
import { createWatchScreen } from '../../../src/watch/door/screen.js';
import type { Watch, WatchState } from '../../../src/watch/model.js';
import { scanResult } from '../../helpers/watch-state-contract.js';

const HOUR = 3_600_000;
const SUBJECT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const signing = { jwksUrl: 'https://scan.example/.well-known/jwks.json', keyId: 'k1' };

describe('the watch door', () => {
  let dir: string;
  let state: WatchState;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-door-'));
    state = await openLmdbWatchState(dir, {
      mode: 'sandbox',
      signingKey: signingKeyFromPem(generateKeyPem()),
      maxWatches: 10,
      maxWatchesPerSubject: 10,
    });
  });
  after(async () => {
    await state.close();
    await rm(dir, { recursive: true, force: true });
  });

  let next = 0;
  const sold = (createdAt: number): Watch => ({
    id: `w_door_${next++}`,
    kind: 'token',
    subject: SUBJECT,
    webhook: 'https://hooks.example.com/risk',
    hours: 1,
    createdAt,
    expiresAt: createdAt + HOUR,
    status: 'active',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    latest: scanResult(0.2, []),
    version: 0,
  });
  const answerOf = (watch: Watch) => JSON.stringify(watchAnswer(watch, signing));

  describe('fulfil (after settlement)', () => {
    it('creates the watch the answer describes, and follows it', async () => {
      let followed = 0;
      const watch = sold(Date.now());
      assert.equal(await createWatchFulfil(state, () => followed++)(answerOf(watch)), null);
      assert.equal((await state.get(watch.id))?.status, 'active');
      assert.equal(followed, 1);
    });

    it('a replay after the watch ended creates nothing, even once the store has forgotten it', async () => {
      const watch = sold(Date.now() - 2 * HOUR);
      let followed = 0;
      const fulfil = createWatchFulfil(state, () => followed++);
      assert.equal(await fulfil(answerOf(watch)), null, 'the answer is handed over');
      assert.equal(await state.get(watch.id), null, 'no watch no one paid for');
      assert.equal(followed, 0);
    });

    it('a replay of a cancelled watch leaves it cancelled and unfollowed', async () => {
      const watch = sold(Date.now());
      const fulfil = createWatchFulfil(state);
      await fulfil(answerOf(watch));
      await state.cancel(watch.id);
      let followed = 0;
      assert.equal(await createWatchFulfil(state, () => followed++)(answerOf(watch)), null);
      assert.equal((await state.get(watch.id))?.status, 'cancelled');
      assert.equal(followed, 0);
    });

    it('a paid watch is created even when the subject filled during its settle call', async () => {
      const full = await openLmdbWatchState(join(dir, 'full'), {
        mode: 'sandbox',
        signingKey: signingKeyFromPem(generateKeyPem()),
        maxWatches: 1,
        maxWatchesPerSubject: 1,
      });
      try {
        assert.equal(typeof (await full.create(sold(Date.now()))), 'object');
        const paid = sold(Date.now());
        assert.equal(await createWatchFulfil(full)(answerOf(paid)), null, 'no 503: it was paid for');
        assert.equal((await full.get(paid.id))?.status, 'active');
      } finally {
        await full.close();
      }
    });

    it('a store that fails: 503 watch_not_started, asking for the replay, its cause kept', async () => {
      const failing: WatchState = { ...state, create: () => Promise.reject(new Error('disk full')) };
      const error = await createWatchFulfil(failing)(answerOf(sold(Date.now())));
      assert.equal(error?.status, 503);
      assert.equal(error?.reason, 'watch_not_started');
      assert.match(error!.message, /same payment again/);
      assert.doesNotMatch(error!.message, /disk full/);
      assert.equal((error!.cause as Error).message, 'disk full');
    });
  });

  describe('the screen (before payment)', () => {
    const order = (webhook: string) => canonicalOrder({ kind: 'token', subject: SUBJECT, webhook, hours: 1 });

    it('beyond its checks at once, refuses with 503 and Retry-After 1 instead of queueing DNS', async () => {
      const waiting: (() => void)[] = [];
      let answering = false;
      const screen = createWatchScreen({
        state,
        maxConcurrentChecks: 2,
        checkWebhook: async () => {
          if (!answering) await new Promise<void>((resolve) => waiting.push(resolve));
          return { ok: true };
        },
      });
      const first = [screen(order('https://a.example/h')), screen(order('https://b.example/h'))];
      const third = await screen(order('https://c.example/h'));
      assert.equal(third?.retryAfterSeconds, 1);
      assert.equal(third?.error.status, 503);
      assert.equal(third?.error.reason, 'busy');
      assert.match(third!.error.message, /nothing was charged/);
      answering = true;
      for (const answer of waiting) answer();
      assert.deepEqual(await Promise.all(first), [null, null]);
      assert.equal(await screen(order('https://d.example/h')), null, 'room again once they are done');
    });

    it('a check past its time still holds its slot until it ends (its lookup still runs)', async () => {
      let end = () => {};
      const screen = createWatchScreen({
        state,
        maxConcurrentChecks: 1,
        checkTimeoutMs: 20,
        checkWebhook: () =>
          new Promise((resolve) => {
            end = () => resolve({ ok: true });
          }),
      });
      const late = await screen(order('https://slow.example/h'));
      assert.equal(late?.error.reason, 'webhook_check_timeout');
      assert.equal((await screen(order('https://next.example/h')))?.error.reason, 'busy');
      end();
      await new Promise((resolve) => setImmediate(resolve));
      const freed = await screen(order('https://next.example/h'));
      assert.equal(freed?.error.reason, 'webhook_check_timeout', 'the slot was free again');
      end();
    });

    it('a webhook check that never answers is refused with 503 once its time is up', async () => {
      const screen = createWatchScreen({
        state,
        checkTimeoutMs: 20,
        checkWebhook: () => new Promise(() => {}),
      });
      const refused = await screen(order('https://slow.example/h'));
      assert.equal(refused?.error.status, 503);
      assert.equal(refused?.error.reason, 'webhook_check_timeout');
      assert.equal(refused?.retryAfterSeconds, 1);
    });
  });
});
