/**
 * The official x402 client (@x402/fetch + @x402/svm) pays each of the five endpoints in the
 * sandbox: 200, a settlement header that decodes, and balances that move by exactly the price.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { atomicPrice, concretePath, GET_ENDPOINTS } from '../../src/catalog.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { jsonOf } from '../helpers/service.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

describe('paying with the official @x402/fetch client', () => {
  let sandbox: PaidSandbox;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(async () => {
    await sandbox?.close();
  });

  for (const endpoint of GET_ENDPOINTS) {
    it(`pays ${endpoint.path} and gets the result; balances move by exactly ${endpoint.price.usd} USDC`, async () => {
      const client = new x402Client().register(
        CAIP2,
        new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
      );
      const payFetch = wrapFetchWithPayment(fetch, client);
      const payerBefore = await sandbox.usdcBalance(sandbox.payer.address);
      const payToBefore = await sandbox.usdcBalance(sandbox.payTo);

      const res = await payFetch(sandbox.url + concretePath(endpoint, endpoint.param.example));
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.ok(typeof body.risk_score === 'number' && body.risk_score >= 0 && body.risk_score <= 1);
      assert.match(body.request_id, /^[0-9a-f-]{36}$/);
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      assert.equal(receipt.success, true);
      assert.equal(receipt.payer, sandbox.payer.address);
      assert.ok(sandbox.chain.transaction(receipt.transaction), 'the settlement transaction is on chain');

      const price = BigInt(atomicPrice(endpoint.price.usd));
      assert.equal(await sandbox.usdcBalance(sandbox.payer.address), payerBefore - price);
      assert.equal(await sandbox.usdcBalance(sandbox.payTo), payToBefore + price);
    });
  }
});
