/**
 * "The payment landed on chain" never proves "this request bought it": several instances on one
 * chain, or one instance after a restart, must not sell one payment twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reasonText } from '../../src/reasons.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 20_000n; // /scan/wallet
const OTHER_WALLET = 'So11111111111111111111111111111111111111112';
/** How an instance that never saw a settled payment refuses it: its store's word, or its facilitator's. */
const ALREADY_SETTLED = [
  reasonText('payment_settled_elsewhere'),
  reasonText('payment_refused', { facilitatorReason: 'invalid_exact_svm_transaction_simulation_failed' }),
];

describe('one payment, several instances on one chain', () => {
  let s: PaidSandbox;
  before(async () => {
    s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(() => s.close());

  async function paymentFor(url: string): Promise<string> {
    const offer = await offerOf(url);
    return encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
  }

  it('presented to three instances at once, it buys one result and moves money once', async () => {
    const instances = [s.url, (await s.startInstance()).url, (await s.startInstance()).url];
    const path = `/scan/wallet/${s.payer.address}`;
    const header = await paymentFor(s.url + path);
    const payToBefore = await s.usdcBalance(s.payTo);
    const answers = await Promise.all(instances.map(async (base) => pay(base + path, header)));
    const bodies = await Promise.all(answers.map((r) => jsonOf(r)));
    const sold = answers.filter((r) => r.status === 200);
    assert.equal(sold.length, 1, JSON.stringify(bodies.map((b) => b.error ?? b.request_id)));
    for (const [i, res] of answers.entries()) {
      if (res.status === 200) continue;
      assert.equal(res.status, 402);
      // Refused as used by another instance's sale, or by the facilitator when it already landed.
      assert.ok(ALREADY_SETTLED.includes(bodies[i].error), bodies[i].error);
      assert.equal(bodies[i].risk_score, undefined, 'no result leaves without its sale');
    }
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE);
  });

  it('presented to a second instance after the first sold it, it buys nothing there', async () => {
    const other = await s.startInstance();
    const path = `/scan/wallet/${s.payer.address}`;
    const header = await paymentFor(s.url + path);
    assert.equal((await pay(s.url + path, header)).status, 200);
    const res = await pay(other.url + path, header);
    const body = await jsonOf(res);
    assert.equal(res.status, 402);
    // The facilitator's simulation already sees it processed (as on mainnet); were it to send it
    // anyway, its "already settled" answer is payment_used. Either way: no result, no charge.
    assert.ok(ALREADY_SETTLED.includes(body.error), body.error);
    assert.equal(body.risk_score, undefined);
  });

  it('after a restart, a settled payment cannot buy another subject’s result', async () => {
    const path = `/scan/wallet/${s.payer.address}`;
    const header = await paymentFor(s.url + path);
    const first = await pay(s.url + path, header);
    assert.equal(first.status, 200);
    const payToAfter = await s.usdcBalance(s.payTo);
    // A restarted process remembers nothing in memory: the chain still shows the payment landed.
    const restarted = await s.startInstance();
    const res = await pay(`${restarted.url}/scan/wallet/${OTHER_WALLET}`, header);
    const body = await jsonOf(res);
    assert.equal(res.status, 402);
    assert.ok(ALREADY_SETTLED.includes(body.error), body.error);
    assert.equal(body.risk_score, undefined);
    assert.equal(await s.usdcBalance(s.payTo), payToAfter, 'no second charge either');
  });
});
