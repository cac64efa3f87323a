/**
 * The read merger of a batch (src/solana/read-merger.ts), against the seeded chain: account reads
 * of one turn merged into reads of at most 100 keys, identical reads sent once, other reads every
 * time, and a merged read's wait in a queue taken from none of its callers' read bounds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  getAddressDecoder,
  type RpcTransport,
} from '@solana/kit';
import { queueAwareTimeout, whileQueued } from '../../src/deadline.js';
import { createReadMerger, MAX_ACCOUNTS_PER_READ } from '../../src/solana/read-merger.js';
import { subjectsOf } from '../helpers/batch-measure.js';
import { countingTransport } from '../helpers/rpc-transports.js';
import { useSeededSandbox } from '../helpers/seeded-sandbox.js';

const sandbox = useSeededSandbox({ name: 'ideal', rateLimit: null });

function merged() {
  const counter = countingTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
  const merger = createReadMerger(counter.transport);
  return { counter, merger, rpc: createSolanaRpcFromTransport(merger.transport) };
}

describe('the read merger', () => {
  it('splits more than 100 accounts into reads of 100 and answers each caller as the RPC would', async () => {
    const { counter, rpc } = merged();
    // The seeded accounts, then addresses no account lives at (answered null), 150 in all.
    const seeded = subjectsOf(sandbox.manifest, ['token', 'pumpfun', 'wallet', 'program'], 100);
    const unseen = Array.from({ length: 150 - seeded.length }, () =>
      getAddressDecoder().decode(crypto.getRandomValues(new Uint8Array(32))),
    );
    const unique = [...seeded, ...unseen];
    const many = Array.from({ length: 130 }, (_, i) => unique[i % unique.length]!);
    const [batch, one] = await Promise.all([
      rpc.getMultipleAccounts(unique as never, { encoding: 'base64' }).send(),
      rpc.getAccountInfo(unique[0] as never, { encoding: 'base64' }).send(),
      rpc.getMultipleAccounts(many as never, { encoding: 'base64' }).send(),
    ]);
    const direct = createSolanaRpcFromTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
    const expected = await direct
      .getMultipleAccounts(unique.slice(0, 100) as never, { encoding: 'base64' })
      .send();
    assert.deepEqual(batch.value.slice(0, 100), expected.value);
    assert.deepEqual(batch.value[0], one.value);
    const reads = Math.ceil(unique.length / MAX_ACCOUNTS_PER_READ);
    assert.deepEqual(counter.calls, Array(reads).fill('getMultipleAccounts'));
  });

  it('sends an identical read once, and a read it does not share every time', async () => {
    const { counter, merger, rpc } = merged();
    const wallet = subjectsOf(sandbox.manifest, ['wallet'], 1)[0]!;
    await rpc.getSignaturesForAddress(wallet as never, { limit: 10 }).send();
    await rpc.getSignaturesForAddress(wallet as never, { limit: 10 }).send();
    await rpc.getEpochInfo().send();
    await rpc.getEpochInfo().send();
    await rpc.getLatestBlockhash().send();
    await rpc.getLatestBlockhash().send();
    assert.deepEqual(counter.calls, [
      'getSignaturesForAddress',
      'getEpochInfo',
      'getLatestBlockhash',
      'getLatestBlockhash',
    ]);
    assert.deepEqual(merger.counts(), { sent: 4, asked: 6 });
  });

  it("does not take a merged read's wait in a queue from its callers' read bounds", async () => {
    // A queue below the merger that holds every read until released (as a rate limit would).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inner = createDefaultRpcTransport({ url: sandbox.server.url });
    const queued: RpcTransport = (async (request) => {
      await whileQueued(request.signal, () => released);
      return inner(request);
    }) as RpcTransport;
    const rpc = createSolanaRpcFromTransport(createReadMerger(queued).transport);
    const [a, b] = subjectsOf(sandbox.manifest, ['token'], 2);
    const bounds = [queueAwareTimeout(50), queueAwareTimeout(50)];
    const reads = [a, b].map((address, i) =>
      rpc.getAccountInfo(address as never, { encoding: 'base64' }).send({ abortSignal: bounds[i]! }),
    );
    // Held past both bounds: a 50 ms timer, had it run, fires before this later one (timers fire
    // in the order they fall due), whatever the load.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      bounds.map((s) => s.aborted),
      [false, false],
    );
    release();
    const answers = await Promise.all(reads);
    assert.ok(answers.every((r) => r.value !== null));
  });

  it('keeps at most its bound of calls in flight, a call waiting for its turn taking nothing from its bound', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inFlight = 0;
    let most = 0;
    const inner = createDefaultRpcTransport({ url: sandbox.server.url });
    const held: RpcTransport = (async (request) => {
      most = Math.max(most, ++inFlight);
      await released;
      try {
        return await inner(request);
      } finally {
        inFlight -= 1;
      }
    }) as RpcTransport;
    const rpc = createSolanaRpcFromTransport(createReadMerger(held, { maxInFlight: 2 }).transport);
    const wallets = subjectsOf(sandbox.manifest, ['wallet', 'token'], 6);
    const bounds = wallets.map((_, i) => (i < 2 ? undefined : queueAwareTimeout(50)));
    const reads = wallets.map((w, i) =>
      rpc.getSignaturesForAddress(w as never, { limit: 5 }).send(bounds[i] ? { abortSignal: bounds[i] } : {}),
    );
    // The last four wait for a turn past their 50 ms: a timer set before this one fires first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      bounds.slice(2).map((b) => b?.aborted),
      [false, false, false, false],
    );
    release();
    await Promise.allSettled(reads);
    assert.equal(most, 2);
  });
});
