/**
 * What the RPC client tells its observer, against local endpoints that script their answers: the
 * outcomes the end-to-end fault proxy cannot produce (a JSON-RPC error answer, a caller that gives
 * up first, a write sent once), and the endpoint each call is told against.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Base64EncodedWireTransaction } from '@solana/kit';
import { createRpcEndpoints } from '../../src/solana/rpc.js';
import type { CircuitName, RpcCallOutcome, RpcObserver } from '../../src/solana/rpc-observer.js';
import { fakeRpcPool } from './fake-rpc.js';

const fake = fakeRpcPool();

/** An observer that writes down what it is told. */
function recorder() {
  const calls: [number, string, RpcCallOutcome][] = [];
  const retries: string[] = [];
  const breakers: [number, CircuitName][] = [];
  const observer: RpcObserver = {
    call: (endpoint, method, outcome, seconds) => {
      assert.ok(seconds >= 0 && Number.isFinite(seconds));
      calls.push([endpoint, method, outcome]);
    },
    retry: (method) => retries.push(method),
    breakerChanged: (endpoint, state) => breakers.push([endpoint, state]),
  };
  return { observer, calls, retries, breakers };
}

const rpcOf = (urls: string[], observer: RpcObserver) =>
  createRpcEndpoints({
    urls,
    timeoutMs: 2_000,
    retry: { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 50 },
    breaker: { failures: 2, halfOpenAfterMs: 60_000 },
    observer,
  }).rpc;

describe('RPC observer', { timeout: 30_000 }, () => {
  it('a JSON-RPC error answer is rpc_error: the endpoint answered, nothing is retried or failed over', async () => {
    const first = await fake(() => ({ error: { code: -32601, message: 'Method not found' } }));
    const second = await fake(() => ({ result: 1 }));
    const seen = recorder();
    await assert.rejects(rpcOf([first.url, second.url], seen.observer).getSlot().send());
    assert.deepEqual(seen.calls, [[0, 'getSlot', 'rpc_error']]);
    assert.deepEqual(seen.retries, []);
    assert.equal(second.count('getSlot'), 0);
  });

  it('a caller that gives up first is abandoned, not a timeout or an error', async () => {
    const hanging = await fake(() => ({ hang: true }));
    const seen = recorder();
    await assert.rejects(
      rpcOf([hanging.url], seen.observer)
        .getSlot()
        .send({ abortSignal: AbortSignal.timeout(100) }),
    );
    assert.deepEqual(seen.calls, [[0, 'getSlot', 'abandoned']]);
    assert.deepEqual(seen.retries, []);
  });

  it('a write is sent once to the first endpoint: one call, no retry even when it fails', async () => {
    const failing = await fake(() => ({ status: 500 }));
    const seen = recorder();
    const tx = 'AQ==' as Base64EncodedWireTransaction;
    await assert.rejects(
      rpcOf([failing.url], seen.observer).sendTransaction(tx, { encoding: 'base64' }).send(),
    );
    assert.deepEqual(seen.calls, [[0, 'sendTransaction', 'error']]);
    assert.deepEqual(seen.retries, []);
  });

  it('every round failing: one call per endpoint per round, a retry per round after the first, the breaker opening once', async () => {
    const a = await fake(() => ({ status: 503 }));
    const b = await fake(() => ({ status: 429, headers: { 'retry-after': '0' } }));
    const seen = recorder();
    await assert.rejects(
      rpcOf([a.url, b.url], seen.observer)
        .getBalance('11111111111111111111111111111111' as never)
        .send(),
    );
    // Round 1 asks both; a's second 503 (round 2) opens its breaker; round 3 skips it.
    assert.deepEqual(seen.calls, [
      [0, 'getBalance', 'error'],
      [1, 'getBalance', '429'],
      [0, 'getBalance', 'error'],
      [1, 'getBalance', '429'],
      [1, 'getBalance', '429'],
    ]);
    assert.deepEqual(seen.retries, ['getBalance', 'getBalance']);
    assert.deepEqual(seen.breakers, [[0, 'open']]);
    assert.equal(a.count('getBalance'), 2);
    assert.equal(b.count('getBalance'), 3);
  });
});
