/**
 * Several API instances share one Redis (payment state, result cache, single flight) and one
 * chain. Whichever instance a request reaches, a payment buys one result and moves money once,
 * its stored response is given again anywhere, and one subject is scanned once for all of them.
 */
import assert from 'node:assert/strict';
import type { ReasonCode } from '../../src/reasons.js';
import { refusalCode } from '../helpers/reason-code.js';

/** A payment another request holds (payment_in_use) or has used (payment_used). */
const HELD_OR_USED: readonly ReasonCode[] = [
  'payment_in_use',
  'payment_rechecked_elsewhere',
  'payment_taken_over',
  'payment_paid_for_another',
  'payment_settling_for_another',
  'payment_settled_elsewhere',
];

import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, generateKeyPairSigner } from '@solana/kit';
import type { Scanner } from '../../src/scans/scanner.js';
import { selling } from '../../src/service/index.js';
import type { SolanaRpc } from '../../src/solana/rpc.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';
import { startRedis } from '../helpers/redis-server.js';
import { type CountingTransport, countingTransport } from '../helpers/rpc-transports.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 20_000n; // /scan/wallet
// Every instance names resources alike, whatever port it listens on.
const PUBLIC_BASE_URL = 'https://scan.test';

const redis = await startRedis({ persist: true });

describe('instances sharing one Redis', { timeout: 60_000 }, () => {
  let s: PaidSandbox;
  let a: string;
  let b: string;
  /** Subjects the scanner ran for, in order, on any instance. */
  const scanned: string[] = [];
  /** The RPC calls the scanner made (it reaches the chain through its own counting client). */
  let scannerRpc: CountingTransport;
  let rpcForScans: SolanaRpc;
  let settleCalls = 0;

  const countingScanner: Scanner = async (subject, context) => {
    scanned.push(subject);
    return probeScanner(subject, { ...context, rpc: rpcForScans });
  };
  const countingFetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (new URL(url).pathname === '/settle') settleCalls++;
    return fetch(input, init);
  }) as typeof fetch;

  before(async () => {
    // Fifty verifications at once on one busy machine: generous facilitator timeouts, so a slow
    // test host shows up as a slow test rather than as refused payments.
    const env = {
      REDIS_URL: redis.url,
      PUBLIC_BASE_URL,
      FACILITATOR_TIMEOUT_MS: '15000',
      SETTLE_TIMEOUT_MS: '15000',
    };
    s = await startPaidSandbox(env, {
      mode: selling(probeScanners(countingScanner)),
      facilitatorFetch: countingFetch,
    });
    scannerRpc = countingTransport(createDefaultRpcTransport({ url: s.rpcServer.url }));
    rpcForScans = createSolanaRpcFromTransport(scannerRpc.transport);
    a = s.url;
    b = (await s.startInstance({}, env)).url;
  });
  after(async () => {
    await s.close();
    await redis.stop();
  });

  const freshSubject = async () => (await generateKeyPairSigner()).address;
  const pathOf = (subject: string) => `/scan/wallet/${subject}`;
  const paymentFor = async (path: string) => {
    const offer = await offerOf(a + path);
    assert.equal(offer.resourceUrl, PUBLIC_BASE_URL + path);
    return encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
  };
  const answer = async (res: Response) => ({ status: res.status, text: await res.text() });

  it('a result scanned through A is served from the shared cache through B', async () => {
    const path = pathOf(await freshSubject());
    const first = await pay(a + path, await paymentFor(path));
    assert.equal(first.status, 200);
    const fresh = await jsonOf(first);
    assert.equal(fresh.cached, false);
    const scansBefore = scanned.length;

    const second = await pay(b + path, await paymentFor(path));
    assert.equal(second.status, 200);
    const hit = await jsonOf(second);
    assert.equal(hit.cached, true, 'B served what A scanned');
    assert.equal(typeof hit.cached_at, 'string');
    assert.deepEqual(hit.evidence, fresh.evidence);
    assert.equal(hit.summary, fresh.summary);
    assert.notEqual(hit.request_id, fresh.request_id, 'a new sale, with its own request_id');
    assert.equal(scanned.length, scansBefore, 'no second scan');
  });

  it('a payment settled through A, replayed on B, gets A’s stored response byte for byte', async () => {
    const path = pathOf(await freshSubject());
    const header = await paymentFor(path);
    const payToBefore = await s.usdcBalance(s.payTo);
    const sold = await pay(a + path, header);
    assert.equal(sold.status, 200);
    const soldText = await sold.text();
    const receipt = sold.headers.get('payment-response');
    assert.ok(receipt, 'A answered with a settlement receipt');

    const replay = await pay(b + path, header);
    assert.equal(replay.status, 200);
    assert.equal(await replay.text(), soldText, 'the same response, same request_id');
    assert.equal(replay.headers.get('payment-response'), receipt, 'and the same receipt');
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE, 'charged once');
  });

  it('one payment used 20 times at once across A and B settles once and sells one response', async () => {
    const path = pathOf(await freshSubject());
    const header = await paymentFor(path);
    const payToBefore = await s.usdcBalance(s.payTo);
    const settlesBefore = settleCalls;
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => answer(await pay((i % 2 === 0 ? a : b) + path, header))),
    );
    const sold = answers.filter((r) => r.status === 200);
    assert.ok(sold.length >= 1, JSON.stringify(answers));
    for (const r of sold) assert.equal(r.text, sold[0]!.text, 'every 200 is the one stored response');
    for (const r of answers.filter((x) => x.status !== 200)) {
      assert.equal(r.status, 402, r.text);
      const body = JSON.parse(r.text);
      assert.ok(HELD_OR_USED.includes(refusalCode(body)), body.error);
      assert.equal(body.risk_score, undefined, 'no result leaves without its sale');
    }
    assert.equal(settleCalls - settlesBefore, 1, 'one settle call reached a facilitator');
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE, 'one settlement on chain');
    for (const base of [a, b]) {
      const replay = await answer(await pay(base + path, header));
      assert.deepEqual(replay, { status: 200, text: sold[0]!.text }, `replayed on ${base}`);
    }
  });

  it('50 paid calls for one subject at once across A and B cause one upstream scan', async () => {
    const subject = await freshSubject();
    const path = pathOf(subject);
    const headers = await Promise.all(Array.from({ length: 50 }, () => paymentFor(path)));
    const payToBefore = await s.usdcBalance(s.payTo);
    const rpcCallsBefore = scannerRpc.calls.length;
    const answers = await Promise.all(
      headers.map(async (header, i) => answer(await pay((i % 2 === 0 ? a : b) + path, header))),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      answers.map(() => 200),
      JSON.stringify(answers.find((r) => r.status !== 200)),
    );
    const bodies = answers.map((r) => JSON.parse(r.text));
    assert.equal(new Set(bodies.map((x) => x.request_id)).size, 50, 'fifty sales');
    assert.equal(new Set(bodies.map((x) => x.summary)).size, 1, 'of one result');
    assert.equal(scanned.filter((x) => x === subject).length, 1, 'scanned once for every instance');
    assert.deepEqual(scannerRpc.calls.slice(rpcCallsBefore), ['getAccountInfo'], 'one scan’s RPC calls');
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + 50n * PRICE);
  });

  describe('one payment presented for two subjects, on two instances', () => {
    /** After both answers: the paid path sells its response everywhere, the other path nothing. */
    async function showsOneSale(paid: string, other: string, header: string, soldText: string) {
      for (const base of [a, b]) {
        const replay = await answer(await pay(base + paid, header));
        assert.deepEqual(replay, { status: 200, text: soldText }, `the paid path, replayed on ${base}`);
        const refused = await pay(base + other, header);
        const body = await jsonOf(refused);
        assert.equal(refused.status, 402);
        assert.equal(refusalCode(body), 'payment_paid_for_another');
        assert.ok(body.error.includes(`already paid for ${paid};`), body.error);
        assert.equal(body.risk_score, undefined);
      }
    }

    it('at once: one result, one settlement; the path that won is the one it paid for', async () => {
      const [p, q] = [pathOf(await freshSubject()), pathOf(await freshSubject())];
      const header = await paymentFor(p);
      const payToBefore = await s.usdcBalance(s.payTo);
      const settlesBefore = settleCalls;
      const [onA, onB] = await Promise.all([
        pay(a + p, header).then(answer),
        pay(b + q, header).then(answer),
      ]);
      const winners = [onA, onB].filter((r) => r.status === 200);
      assert.equal(winners.length, 1, JSON.stringify([onA, onB]));
      const [paid, other, loser] = onA.status === 200 ? [p, q, onB] : [q, p, onA];
      assert.equal(loser.status, 402);
      assert.ok(HELD_OR_USED.includes(refusalCode(JSON.parse(loser.text))), loser.text);
      assert.ok(JSON.parse(winners[0]!.text).summary.startsWith(paid.split('/').pop()), 'its own result');
      assert.equal(settleCalls - settlesBefore, 1);
      assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE);
      await showsOneSale(paid, other, header, winners[0]!.text);
    });

    it('one after another: the honest payer’s path keeps its response; the other is refused', async () => {
      const [p, q] = [pathOf(await freshSubject()), pathOf(await freshSubject())];
      const header = await paymentFor(p);
      const payToBefore = await s.usdcBalance(s.payTo);
      const sold = await answer(await pay(a + p, header));
      assert.equal(sold.status, 200);
      await showsOneSale(p, q, header, sold.text);
      assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE, 'charged once');
    });
  });
});
