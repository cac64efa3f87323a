/**
 * The template probe can never be paid: a real payment presented at an endpoint's template
 * (`/scan/token/{mint}`), even one built from the template's own offer, is refused with a 402
 * that says why, before anything is verified or claimed — no facilitator call, no money moved —
 * and the same payment still buys a real subject's result afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v1Payment, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';

const PRICE = 300_000n; // /scan/token
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('a payment presented at the template', () => {
  let sandbox: PaidSandbox;
  /** Verify and settle requests the service sent to any facilitator. */
  const facilitatorCalls: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path === '/verify' || path === '/settle') facilitatorCalls.push(path);
    return fetch(input, init);
  };

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()), facilitatorFetch: countingFetch });
  });
  after(async () => {
    await sandbox?.close();
  });

  for (const template of ['/scan/token/%7Bmint%7D', '/scan/token/:mint']) {
    it(`${template}: v2 and v1 payments from its own offer are refused untouched; the v2 one then buys a real scan`, async () => {
      const url = sandbox.url + template;
      const offer = await offerOf(url);
      const v2 = encodeHeader(
        await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl),
      );
      const v1 = encodeHeader(
        await v1Payment(sandbox.payer, sandbox.rpcServer.url, offer.v1, offer.v1.network as string),
      );
      const before = await sandbox.balances();
      const callsBefore = facilitatorCalls.length;

      for (const [header, name] of [
        [v2, 'PAYMENT-SIGNATURE'],
        [v1, 'X-PAYMENT'],
      ] as const) {
        const res = await pay(url, header, name);
        const text = await res.text();
        assert.equal(res.status, 402, text);
        assert.equal(res.headers.get('payment-response'), null, 'no receipt');
        const body = JSON.parse(text);
        assert.equal(body.risk_score, undefined, 'no result');
        assert.equal(refusalCode(body), 'payment_at_template');
        assert.equal(body.accepts.length, 1, 'the offer is repeated with the reason');
      }
      assert.deepEqual(facilitatorCalls.slice(callsBefore), [], 'nothing verified or settled');
      assert.deepEqual(await sandbox.balances(), before, 'no money moved');

      // Not claimed either: the same payment buys one result for a real mint.
      const real = await pay(`${sandbox.url}/scan/token/${MINT}`, v2);
      assert.equal(real.status, 200, await real.clone().text());
      assert.ok(((await real.json()) as { risk_score?: number }).risk_score !== undefined);
      assert.deepEqual(await sandbox.balances(), {
        payer: before.payer - PRICE,
        payTo: before.payTo + PRICE,
      });
      assert.ok(facilitatorCalls.slice(callsBefore).includes('/settle'), 'the counter sees a real payment');
    });
  }
});
