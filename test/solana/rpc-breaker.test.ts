/**
 * Per-endpoint circuit breakers of the scanners' RPC client, against local endpoints that count
 * what reaches them: after the configured consecutive failures an endpoint is skipped at once
 * (no request reaches it), after the half-open delay one request tries it again, and its success
 * closes the breaker. The breakers' clock (Date, which cockatiel reads) is the test's: it moves
 * only when a test moves it past the half-open delay, so a slow machine never half-opens a breaker
 * in the middle of a test, and no test waits for the delay to pass.
 */
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it, mock } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRpcEndpoints, RpcCircuitOpenError } from '../../src/solana/rpc.js';
import { type FakeAnswer, type FakeRpc, startFakeRpc } from './fake-rpc.js';

const fakes: FakeRpc[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

/** An endpoint whose answer the test switches with `set`. */
async function switchable(first: FakeAnswer) {
  let answer = first;
  const server = await startFakeRpc(() => answer);
  fakes.push(server);
  return { server, set: (next: FakeAnswer) => (answer = next) };
}

const SLOT = { result: 42 };
const HALF_OPEN_MS = 200;

const endpoints = (urls: string[], failures = 3) =>
  createRpcEndpoints({
    urls,
    timeoutMs: 2_000,
    retry: { maxRetries: 0, initialDelayMs: 5 },
    breaker: { failures, halfOpenAfterMs: HALF_OPEN_MS },
  });

/** A breaker opened by 500s, past its half-open delay, before an endpoint that now hangs. */
async function halfOpenBeforeHangingEndpoint() {
  const dead = await switchable({ status: 500 });
  const spare = await switchable(SLOT);
  const { rpc, circuits } = endpoints([dead.server.url, spare.server.url]);
  for (let i = 0; i < 3; i++) await rpc.getSlot().send();
  dead.set({ hang: true });
  mock.timers.tick(HALF_OPEN_MS);
  return { dead, rpc, circuits };
}

describe('RPC circuit breakers', { timeout: 30_000 }, () => {
  beforeEach(() => mock.timers.enable({ apis: ['Date'], now: Date.now() }));
  afterEach(() => mock.timers.reset());

  it('opens after the configured failures: the failing endpoint is skipped, the other answers', async () => {
    const failing = await switchable({ status: 500 });
    const spare = await switchable(SLOT);
    const { rpc, circuits } = endpoints([failing.server.url, spare.server.url]);
    for (let i = 0; i < 6; i++) assert.equal(await rpc.getSlot().send(), 42n);
    assert.equal(failing.server.count('getSlot'), 3, 'no request after the breaker opened');
    assert.equal(spare.server.count('getSlot'), 6);
    assert.deepEqual(
      circuits().map((c) => c.state),
      ['open', 'closed'],
    );
  });

  it('while a probe tries the half-open endpoint, other reads go to the next one instead of waiting behind it', async () => {
    const { dead, rpc, circuits } = await halfOpenBeforeHangingEndpoint();
    let probeEnded = false;
    const probe = rpc
      .getSlot()
      .send()
      .finally(() => {
        probeEnded = true;
      });
    while (dead.server.count('getSlot') < 4) await sleep(10);
    assert.equal(await rpc.getSlot().send(), 42n, 'answered by the spare');
    assert.equal(probeEnded, false, 'while the probe still waits on the dead endpoint');
    assert.equal(circuits()[0]?.state, 'half_open');
    await probe.catch(() => undefined);
  });

  it('a probe its caller gave up on does not close the breaker', async () => {
    const { rpc, circuits } = await halfOpenBeforeHangingEndpoint();
    await assert.rejects(rpc.getSlot().send({ abortSignal: AbortSignal.timeout(100) }));
    assert.equal(circuits()[0]?.state, 'open');
  });

  it('half-opens after the configured time; a successful probe closes it', async () => {
    const failing = await switchable({ status: 503 });
    const spare = await switchable(SLOT);
    const { rpc, circuits } = endpoints([failing.server.url, spare.server.url]);
    for (let i = 0; i < 4; i++) await rpc.getSlot().send();
    assert.equal(failing.server.count('getSlot'), 3);
    failing.set({ result: 7 });
    mock.timers.tick(HALF_OPEN_MS);
    assert.equal(await rpc.getSlot().send(), 7n, 'the probe went to the recovered endpoint');
    assert.equal(circuits()[0]?.state, 'closed');
    assert.equal(await rpc.getSlot().send(), 7n);
    assert.equal(failing.server.count('getSlot'), 5);
    assert.equal(spare.server.count('getSlot'), 4);
  });

  it('a failed probe opens it again for another period: one request reached the endpoint', async () => {
    const failing = await switchable({ drop: true });
    const spare = await switchable(SLOT);
    const { rpc, circuits } = endpoints([failing.server.url, spare.server.url], 2);
    for (let i = 0; i < 3; i++) await rpc.getSlot().send();
    assert.equal(failing.server.count('getSlot'), 2);
    mock.timers.tick(HALF_OPEN_MS);
    for (let i = 0; i < 3; i++) assert.equal(await rpc.getSlot().send(), 42n);
    assert.equal(failing.server.count('getSlot'), 3, 'only the probe reached it');
    assert.equal(circuits()[0]?.state, 'open');
  });

  it('every endpoint open: the call fails at once with an error that says so, nothing sent', async () => {
    const only = await switchable({ status: 500 });
    const { rpc } = endpoints([only.server.url], 2);
    for (let i = 0; i < 2; i++) await assert.rejects(rpc.getSlot().send());
    only.set(SLOT);
    await assert.rejects(rpc.getSlot().send(), (e: unknown) => {
      assert.ok(e instanceof RpcCircuitOpenError, String(e));
      return true;
    });
    assert.equal(only.server.count('getSlot'), 2);
  });

  it('a refusal of one method (HTTP 410) is not an endpoint failure: the breaker stays closed', async () => {
    const refusing = await switchable({ status: 410 });
    const { rpc, circuits } = endpoints([refusing.server.url], 2);
    for (let i = 0; i < 4; i++) await assert.rejects(rpc.getSlot().send());
    assert.equal(refusing.server.count('getSlot'), 4);
    assert.equal(circuits()[0]?.state, 'closed');
  });

  it('rate limits (HTTP 429) do not open the breaker: the endpoint is up, only asking to slow down', async () => {
    const limited = await switchable({ status: 429 });
    const { rpc, circuits } = endpoints([limited.server.url], 2);
    for (let i = 0; i < 4; i++) await assert.rejects(rpc.getSlot().send());
    assert.equal(limited.server.count('getSlot'), 4, 'every call reached the endpoint');
    assert.equal(circuits()[0]?.state, 'closed');
    limited.set(SLOT);
    assert.equal(await rpc.getSlot().send(), 42n, 'answered at once when the limit lifts');
  });

  it('a caller giving up is not an endpoint failure', async () => {
    const slow = await switchable({ hang: true });
    const { rpc, circuits } = endpoints([slow.server.url], 1);
    await assert.rejects(rpc.getSlot().send({ abortSignal: AbortSignal.timeout(50) }));
    assert.equal(circuits()[0]?.state, 'closed');
  });

  it('identical reads sent together each get their own answer: none is a mixed-up id, the breaker stays closed', async () => {
    const healthy = await switchable(SLOT);
    const { rpc, circuits } = endpoints([healthy.server.url], 2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => rpc.getSlot().send()));
    assert.deepEqual(answers, Array(8).fill(42n));
    assert.equal(
      circuits()[0]?.state,
      'closed',
      "a shared answer with the first caller's id counted as a failure",
    );
  });

  it('FAILURES 0 turns breakers off', () => {
    assert.deepEqual(endpoints(['http://127.0.0.1:9'], 0).circuits(), []);
  });
});
