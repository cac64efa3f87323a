/** x402 v1 payments (X-PAYMENT) naming any of the Solana mainnet aliases are accepted. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v1Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { jsonOf } from '../helpers/service.js';

describe('x402 v1 X-PAYMENT', () => {
  let sandbox: PaidSandbox;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(async () => {
    await sandbox?.close();
  });

  for (const network of [
    'solana-mainnet',
    'solana',
    'solana-mainnet-beta',
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  ]) {
    it(`accepts a v1 payment naming "${network}" and answers with X-PAYMENT-RESPONSE`, async () => {
      const url = `${sandbox.url}/scan/wallet/${sandbox.payTo}`;
      const offer = await offerOf(url);
      assert.equal(offer.v1.network, 'solana-mainnet');
      const payment = await v1Payment(sandbox.payer, sandbox.rpcServer.url, offer.v1, network);
      const before = await sandbox.usdcBalance(sandbox.payTo);
      const res = await pay(url, encodeHeader(payment), 'X-PAYMENT');
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      const receipt = JSON.parse(Buffer.from(res.headers.get('x-payment-response')!, 'base64').toString());
      assert.equal(receipt.success, true);
      assert.equal(receipt.network, network);
      assert.equal(await sandbox.usdcBalance(sandbox.payTo), before + 20_000n);
    });
  }
});
