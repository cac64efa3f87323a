/**
 * Facilitator faults on the wire: a fault-injecting proxy sits in front of one of the two sandbox
 * facilitators (listed first, so the 402 names it), and spoils its HTTP answers. Unlike
 * payment-faults.test.ts (a fetch wrapper inside the service), the faults here are real sockets:
 * resets, truncated bodies, slow drips, hangs, each before or after the facilitator did the work.
 *
 * The money rules:
 * - /verify fails: a 402 "could not verify … nothing was charged", nothing settled, and the same
 *   payment buys one result once the fault is gone.
 * - /settle fails before the facilitator saw it: nothing settled; the 402 never says "nothing was
 *   charged" until the chain proves it (the payment's blockhash expired).
 * - /settle's answer is lost after the facilitator settled: the payment landed, so the result is
 *   delivered (at once, or on replay after a 402 settlement_unconfirmed) with a receipt naming the
 *   transaction, and payTo is charged exactly once.
 * - /supported fails at start: the 402 names the other facilitator, and the payment settles there.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type Fault, type FaultProxy, PASS, startFaultProxy } from '../helpers/fault-proxy.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, type Offer, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';

const PRICE = 20_000n; // /scan/wallet
const TIMING = {
  // Generous enough that a loaded machine's honest answers are never cut off.
  FACILITATOR_TIMEOUT_MS: '3000',
  SETTLE_TIMEOUT_MS: '6000',
  CONFIRM_WINDOW_MS: '1000',
};
const TEST_TIMEOUT_MS = 30_000;

interface Rig {
  readonly s: PaidSandbox;
  readonly proxy: FaultProxy;
  readonly url: string;
  readonly offer: Offer;
  /** The fee payers of the proxied facilitator and of the other one. */
  readonly proxied: string;
  readonly other: string;
  payment(): Promise<string>;
}

/** `fault` is applied to every request whose "METHOD /path" is `target`; everything else passes. */
async function withRig(
  target: string,
  fault: Fault,
  run: (rig: Rig) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  const [proxiedFacilitator, otherFacilitator] = s.facilitators;
  const proxy = await startFaultProxy(proxiedFacilitator!.url, ({ method }) =>
    method === target ? fault : { kind: 'pass' },
  );
  try {
    const instance = await s.startInstance(
      { mode: selling(probeScanners()) },
      { ...TIMING, FACILITATOR_URLS: `${proxy.url},${otherFacilitator!.url}`, ...env },
    );
    const url = `${instance.url}/scan/wallet/${s.payer.address}`;
    const offer = await offerOf(url);
    await run({
      s,
      proxy,
      url,
      offer,
      proxied: proxiedFacilitator!.feePayer,
      other: otherFacilitator!.feePayer,
      payment: async () =>
        encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl)),
    });
  } finally {
    await s.close();
    await proxy.close();
  }
}

const charged = (before: { payer: bigint; payTo: bigint }) => ({
  payer: before.payer - PRICE,
  payTo: before.payTo + PRICE,
});

async function answer(res: Response): Promise<{ status: number; text: string; body: Record<string, any> }> {
  const text = await res.text();
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(text) as Record<string, any>;
  } catch {
    // not JSON: asserted on by status and text
  }
  return { status: res.status, text, body };
}

/** A 200 with a result and a receipt naming a transaction on chain, paid with `feePayer`. */
function assertDelivered(
  s: PaidSandbox,
  res: Response,
  got: { status: number; text: string; body: Record<string, any> },
  feePayer: string,
) {
  assert.equal(got.status, 200, got.text);
  assert.equal(typeof got.body.risk_score, 'number', got.text);
  const header = res.headers.get('payment-response');
  assert.ok(header, 'a receipt');
  const receipt = JSON.parse(Buffer.from(header, 'base64').toString()) as Record<string, any>;
  assert.equal(receipt.success, true);
  const tx = s.chain.transaction(receipt.transaction);
  assert.ok(tx, 'the receipt names a transaction on chain');
  assert.equal(tx.accountKeys[0], feePayer, 'settled by the facilitator the payment named');
}

function assertNoResult(got: { status: number; text: string; body: Record<string, any> }) {
  assert.equal(got.status, 402, got.text);
  assert.equal(got.body.risk_score, undefined, 'no result without a landed payment');
}

const VERIFY_FAULTS: readonly { readonly name: string; readonly fault: Fault }[] = [
  { name: '429', fault: { kind: '429', retryAfter: '1' } },
  { name: '500', fault: { kind: '500' } },
  { name: 'reset', fault: { kind: 'reset' } },
  { name: 'hang', fault: { kind: 'hang' } },
  { name: 'malformed JSON', fault: { kind: 'malformed' } },
  { name: 'truncated body', fault: { kind: 'truncated' } },
  { name: 'slow drip past the timeout', fault: { kind: 'drip', intervalMs: 100 } },
  { name: 'forwarded, then 500', fault: { kind: '500', afterForwarding: true } },
  { name: 'forwarded, then reset', fault: { kind: 'reset', afterForwarding: true } },
  { name: 'forwarded, then hang', fault: { kind: 'hang', afterForwarding: true } },
];

/** Verify in parallel with the scan (the default) and before it. */
const VERIFY_MODES = [
  { mode: '', env: {}, faults: VERIFY_FAULTS },
  {
    mode: ' (PARALLEL_VERIFY=false)',
    env: { PARALLEL_VERIFY: 'false' },
    faults: VERIFY_FAULTS.filter(({ name }) => ['500', 'hang', 'forwarded, then reset'].includes(name)),
  },
];

describe('/verify faults: 402 "could not verify … nothing was charged", then the same payment buys one result', {
  concurrency: 4,
}, () => {
  for (const { mode, env, faults } of VERIFY_MODES) {
    for (const { name, fault } of faults) {
      it(`verify ${name}${mode}`, { timeout: TEST_TIMEOUT_MS }, async () => {
        await withRig(
          'POST /verify',
          fault,
          async ({ s, proxy, url, offer, proxied, payment }) => {
            assert.equal(offer.v2.extra?.feePayer, proxied, 'the 402 names the proxied facilitator');
            const header = await payment();
            const before = await s.balances();
            const first = await answer(await pay(url, header));
            assertNoResult(first);
            assert.equal(refusalCode(first.body), 'verify_unavailable');
            assert.ok((proxy.applied.get(fault.kind) ?? 0) > 0, 'the fault was applied');
            assert.equal(proxy.seen.get('POST /settle'), undefined, 'no settle after a failed verify');
            assert.deepEqual(await s.balances(), before, 'nothing settled');

            proxy.setPlan(PASS);
            const res = await pay(url, header);
            assertDelivered(s, res, await answer(res), proxied);
            assert.deepEqual(await s.balances(), charged(before), 'charged exactly once');
          },
          env,
        );
      });
    }
  }
});

const SETTLE_FAULTS_BEFORE: readonly { readonly name: string; readonly fault: Fault }[] = [
  { name: '429', fault: { kind: '429' } },
  { name: '500', fault: { kind: '500' } },
  { name: 'reset', fault: { kind: 'reset' } },
  { name: 'hang', fault: { kind: 'hang' } },
];

describe('/settle faults before the facilitator saw it: nothing settled, never "nothing was charged" until the chain proves it', {
  concurrency: 4,
}, () => {
  for (const { name, fault } of SETTLE_FAULTS_BEFORE) {
    it(`settle ${name} (not forwarded)`, { timeout: TEST_TIMEOUT_MS }, async () => {
      await withRig('POST /settle', fault, async ({ s, proxy, url, payment }) => {
        const header = await payment();
        const before = await s.balances();
        const first = await answer(await pay(url, header));
        assertNoResult(first);
        // Its words never say "nothing was charged": the chain has not proved it yet (test/reasons.test.ts).
        assert.equal(refusalCode(first.body), 'settlement_unconfirmed');
        assert.ok((proxy.applied.get(fault.kind) ?? 0) > 0, 'the fault was applied');
        assert.deepEqual(await s.balances(), before, 'nothing settled');

        // The fault gone, the same payment is looked up on chain (not settled anew): still unknown.
        proxy.setPlan(PASS);
        const again = await answer(await pay(url, header));
        assertNoResult(again);
        assert.equal(refusalCode(again.body), 'settlement_unconfirmed');
        assert.deepEqual(await s.balances(), before);

        // Once its blockhash has expired, the chain proves it never landed.
        s.chain.warp(200);
        const expired = await answer(await pay(url, header));
        assertNoResult(expired);
        assert.equal(refusalCode(expired.body), 'payment_not_landed');
        assert.deepEqual(await s.balances(), before);
      });
    });
  }
});

const SETTLE_FAULTS_AFTER: readonly { readonly name: string; readonly fault: Fault }[] = [
  { name: 'reset', fault: { kind: 'reset', afterForwarding: true } },
  { name: '500', fault: { kind: '500', afterForwarding: true } },
  { name: 'hang', fault: { kind: 'hang', afterForwarding: true } },
  { name: 'malformed JSON', fault: { kind: 'malformed' } },
  { name: 'truncated body', fault: { kind: 'truncated' } },
  { name: 'slow drip past the timeout', fault: { kind: 'drip', intervalMs: 100 } },
];

describe('/settle answer lost after the facilitator settled: delivered, receipt names the transaction, charged once', {
  concurrency: 4,
}, () => {
  for (const { name, fault } of SETTLE_FAULTS_AFTER) {
    it(`settle forwarded, then ${name}`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
      await withRig('POST /settle', fault, async ({ s, proxy, url, proxied, payment }) => {
        const header = await payment();
        const before = await s.balances();
        let res = await pay(url, header);
        let got = await answer(res);
        assert.ok((proxy.applied.get(fault.kind) ?? 0) > 0, 'the fault was applied');
        if (got.status === 402) {
          // Allowed: unconfirmed within the window, and delivered on replay.
          assert.equal(refusalCode(got.body), 'settlement_unconfirmed');
          t.diagnostic('402 settlement_unconfirmed, then 200 on replay');
          res = await pay(url, header);
          got = await answer(res);
        } else {
          t.diagnostic('200 at once (resolved on chain)');
        }
        assertDelivered(s, res, got, proxied);
        assert.deepEqual(await s.balances(), charged(before), 'charged exactly once');

        // The same payment again: the same result, not a second charge.
        const replay = await pay(url, header);
        assertDelivered(s, replay, await answer(replay), proxied);
        assert.deepEqual(await s.balances(), charged(before), 'still charged exactly once');
      });
    });
  }
});

const SUPPORTED_FAULTS: readonly { readonly name: string; readonly fault: Fault }[] = [
  { name: '500', fault: { kind: '500' } },
  { name: 'reset', fault: { kind: 'reset' } },
  { name: 'hang', fault: { kind: 'hang' } },
  { name: 'malformed JSON', fault: { kind: 'malformed' } },
];

describe('/supported faults at start: the 402 names the other facilitator, and the payment settles there', {
  concurrency: 4,
}, () => {
  for (const { name, fault } of SUPPORTED_FAULTS) {
    it(`supported ${name}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      await withRig('GET /supported', fault, async ({ s, proxy, url, offer, other, payment }) => {
        assert.equal(offer.v2.extra?.feePayer, other, 'the 402 names the healthy facilitator');
        const before = await s.balances();
        const res = await pay(url, await payment());
        assertDelivered(s, res, await answer(res), other);
        assert.deepEqual(await s.balances(), charged(before), 'charged exactly once');
        assert.equal(proxy.seen.get('POST /verify'), undefined, 'the faulty facilitator was not used');
      });
    });
  }
});
