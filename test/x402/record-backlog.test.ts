/**
 * The backlog of sale records the store could not take: close() on shutdown never returns while a
 * record is still being written, and says so when records stay unwritten.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClaimRecord, PaymentStore } from '../../src/x402/payment-store.js';
import { createRecordBacklog } from '../../src/x402/record-backlog.js';

/** A store whose every record() waits for the test to answer it. */
function heldStore() {
  const calls: { key: string; answer: (ok: boolean) => void; fail: () => void }[] = [];
  let called: (() => void) | null = null;
  const store = {
    record: (key: string) =>
      new Promise<boolean>((resolve, reject) => {
        calls.push({ key, answer: resolve, fail: () => reject(new Error('store down')) });
        called?.();
      }),
  } as unknown as PaymentStore;
  const nextCall = () =>
    new Promise<void>((resolve) => {
      called = resolve;
    });
  return { store, calls, nextCall };
}

const RECORD = {} as ClaimRecord;

describe('record backlog', () => {
  // The backlog's retry timer is unref'd (it must not hold a process open): something else keeps
  // the test's event loop alive while it waits for that timer.
  let alive: NodeJS.Timeout;
  before(() => {
    alive = setInterval(() => {}, 60_000);
  });
  after(() => clearInterval(alive));

  it('close() waits for a write its timer started, instead of returning with the record in flight', async () => {
    const { store, calls, nextCall } = heldStore();
    const warnings: string[] = [];
    const backlog = createRecordBacklog(store, { retryMs: 1, log: { warn: (_f, m) => warnings.push(m) } });
    const firstTry = nextCall();
    backlog.add('key-1', 'holder', RECORD);
    await firstTry; // the timer's retry is writing the record now
    let closed = false;
    const closing = backlog.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(closed, false, 'close() returned while the record was still being written');
    calls[0]!.answer(true);
    await closing;
    assert.equal(backlog.size(), 0);
    assert.deepEqual(warnings, ['payment records written late']);
  });

  it('close() also waits for a retry started from outside (retryRecords), not only its timer’s', async () => {
    const { store, calls, nextCall } = heldStore();
    const backlog = createRecordBacklog(store, { retryMs: 3_600_000 });
    backlog.add('key-3', 'holder', RECORD);
    const writing = nextCall();
    const retried = backlog.retry();
    await writing;
    let closed = false;
    const closing = backlog.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(closed, false, 'close() returned while the record was still being written');
    calls[0]!.answer(true);
    await Promise.all([retried, closing]);
    assert.equal(backlog.size(), 0);
  });

  it('a record the store still refuses at close is retried once more, then reported unwritten', async () => {
    const { store, calls, nextCall } = heldStore();
    const warnings: string[] = [];
    const backlog = createRecordBacklog(store, { retryMs: 1, log: { warn: (_f, m) => warnings.push(m) } });
    const firstTry = nextCall();
    backlog.add('key-2', 'holder', RECORD);
    await firstTry;
    const lastTry = nextCall();
    const closing = backlog.close();
    calls[0]!.fail();
    await lastTry; // close() tries the record itself once more
    calls[1]!.fail();
    await closing;
    assert.equal(backlog.size(), 1);
    assert.deepEqual(warnings, ['payment records left unwritten at close']);
    assert.deepEqual(
      calls.map((c) => c.key),
      ['key-2', 'key-2'],
    );
  });
});
