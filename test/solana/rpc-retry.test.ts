/**
 * The scanners' RPC client against a local endpoint that injects faults: 429s are retried
 * (honouring Retry-After) and so are 5xx and dropped connections, within a bounded number of
 * rounds and never past the caller's abort signal; sendTransaction is sent once.
 * Assertions are on counts and outcomes; the only timing assertion is a lower bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Base64EncodedWireTransaction } from '@solana/kit';
import {
  createRpc,
  parseRetryAfter,
  RpcIdMismatchError,
  RpcMalformedAnswerError,
  RpcRateLimitedError,
} from '../../src/solana/rpc.js';
import { fakeRpcPool } from './fake-rpc.js';

const fake = fakeRpcPool();

const rpcOf = (urls: string[], maxRetries = 3) =>
  createRpc({ urls, timeoutMs: 2_000, retry: { maxRetries, initialDelayMs: 5, maxDelayMs: 1_500 } });

const SLOT = { result: 42 };

describe('RPC retries', { timeout: 30_000 }, () => {
  it('a 429 with Retry-After: 0 is asked again and the answer comes back', async () => {
    const server = await fake((_, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '0' } } : SLOT));
    assert.equal(await rpcOf([server.url]).getSlot().send(), 42n);
    assert.equal(server.count('getSlot'), 2);
  });

  it('waits at least what Retry-After asked before asking again', async () => {
    const server = await fake((_, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : SLOT));
    const started = performance.now();
    assert.equal(await rpcOf([server.url]).getSlot().send(), 42n);
    assert.ok(performance.now() - started >= 950, 'asked again before Retry-After elapsed');
    assert.equal(server.count('getSlot'), 2);
  });

  it('429 forever: gives up after the bounded rounds with an error that says so', async () => {
    const server = await fake(() => ({ status: 429, headers: { 'retry-after': '0' } }));
    await assert.rejects(rpcOf([server.url], 3).getSlot().send(), (e: unknown) => {
      assert.ok(e instanceof RpcRateLimitedError, String(e));
      assert.match(e.message, /getSlot was answered HTTP 429 \(Too Many Requests\) on 4 attempt/);
      return true;
    });
    assert.equal(server.count('getSlot'), 4);
  });

  it("429 forever: the caller's deadline ends the waiting, and nothing is sent after it", async () => {
    const server = await fake(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const rpc = rpcOf([server.url], 100);
    await assert.rejects(rpc.getSlot().send({ abortSignal: AbortSignal.timeout(300) }), (e: unknown) => {
      assert.equal((e as Error).name, 'TimeoutError');
      return true;
    });
    const sent = server.count('getSlot');
    assert.equal(sent, 1, 'the first 429 asked for 1 s, longer than the deadline');
    await sleep(1_300); // past the pending wait: the retry must not go out
    assert.equal(server.count('getSlot'), sent);
  });

  it('a 500 is asked again', async () => {
    const server = await fake((_, n) => (n === 1 ? { status: 500 } : SLOT));
    assert.equal(await rpcOf([server.url]).getSlot().send(), 42n);
    assert.equal(server.count('getSlot'), 2);
  });

  it('a dropped connection is asked again', async () => {
    const server = await fake((_, n) => (n === 1 ? { drop: true } : SLOT));
    assert.equal(await rpcOf([server.url]).getSlot().send(), 42n);
    assert.equal(server.count('getSlot'), 2);
  });

  it('a timeout fails over to the next endpoint, but a round that timed out everywhere is not asked again', async () => {
    const silent = await fake(() => ({ hang: true }));
    const spare = await fake(() => SLOT);
    const rpc = (urls: string[]) => createRpc({ urls, timeoutMs: 150, retry: { initialDelayMs: 5 } });
    assert.equal(await rpc([silent.url, spare.url]).getSlot().send(), 42n);
    assert.equal(spare.count('getSlot'), 1);
    await assert.rejects(
      rpc([silent.url]).getSlot().send(),
      (e: unknown) => (e as Error).name === 'TimeoutError',
    );
    assert.equal(silent.count('getSlot'), 2);
  });

  it("within a caller's deadline, a round that timed out is asked again", async () => {
    const slowOnce = await fake((_, n) => (n === 1 ? { hang: true } : SLOT));
    const rpc = createRpc({ urls: [slowOnce.url], timeoutMs: 150, retry: { initialDelayMs: 5 } });
    assert.equal(await rpc.getSlot().send({ abortSignal: AbortSignal.timeout(10_000) }), 42n);
    assert.equal(slowOnce.count('getSlot'), 2);
  });

  it('a 429 fails over to the next endpoint before any wait', async () => {
    const limited = await fake(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const spare = await fake(() => SLOT);
    assert.equal(await rpcOf([limited.url, spare.url]).getSlot().send(), 42n);
    assert.equal(limited.count('getSlot'), 1);
    assert.equal(spare.count('getSlot'), 1);
  });

  it('a 403 is not a transient failure: tried once on each endpoint, no further rounds', async () => {
    const server = await fake(() => ({ status: 403 }));
    await assert.rejects(rpcOf([server.url]).getSlot().send(), /HTTP error \(403\)|403/);
    assert.equal(server.count('getSlot'), 1);
  });

  it("an answer carrying another request's id is refused: the next endpoint is asked", async () => {
    const mixedUp = await fake(() => ({ id: 'someone-else', result: 7 }));
    const good = await fake(() => SLOT);
    assert.equal(await rpcOf([mixedUp.url, good.url]).getSlot().send(), 42n);
    await assert.rejects(rpcOf([mixedUp.url]).getSlot().send(), (e: unknown) => {
      assert.ok(e instanceof RpcIdMismatchError, String(e));
      assert.match(e.message, /getSlot carried id "someone-else"/);
      return true;
    });
  });

  it('an answer that is no JSON-RPC answer is refused, naming the method: the next endpoint is asked', async () => {
    const good = await fake(() => SLOT);
    for (const raw of ['null', '"hello"', '42', '[1]', '{"jsonrpc":"2.0","id":1}']) {
      const garbled = await fake(() => ({ raw }));
      assert.equal(await rpcOf([garbled.url, good.url]).getSlot().send(), 42n, raw);
      await assert.rejects(rpcOf([garbled.url]).getSlot().send(), (e: unknown) => {
        assert.ok(e instanceof RpcMalformedAnswerError, `${raw}: ${String(e)}`);
        assert.match(e.message, /^RPC answer to getSlot is not a JSON-RPC answer: /);
        return true;
      });
    }
  });

  it('a JSON-RPC error answer is the answer: not retried', async () => {
    const server = await fake(() => ({ error: { code: -32602, message: 'Invalid params' } }));
    await assert.rejects(rpcOf([server.url]).getSlot().send());
    assert.equal(server.count('getSlot'), 1);
  });

  it('sendTransaction is sent once, whatever the failure, and never to a second endpoint', async () => {
    for (const answer of [
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500 },
      { drop: true },
    ] as const) {
      const first = await fake(() => answer);
      const second = await fake(() => ({
        result: '1111111111111111111111111111111111111111111111111111111111111111',
      }));
      const tx = 'AQ==' as Base64EncodedWireTransaction;
      await assert.rejects(rpcOf([first.url, second.url]).sendTransaction(tx, { encoding: 'base64' }).send());
      assert.equal(first.count('sendTransaction'), 1);
      assert.equal(second.count('sendTransaction'), 0);
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and ignores what it cannot read', () => {
    assert.equal(parseRetryAfter('0'), 0);
    assert.equal(parseRetryAfter('2'), 2_000);
    assert.equal(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
      10_000,
    );
    assert.equal(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT')),
      0,
    );
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });
});
