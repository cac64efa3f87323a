/** A second, independent x402 client stack (Faremeter/Corbits) pays the service as well. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { wrap } from '@faremeter/fetch';
import { createPaymentHandler } from '@faremeter/payment-solana/exact';
import { createLocalWallet } from '@faremeter/wallet-solana';
import { address, createSolanaRpc } from '@solana/kit';
import { generateKeypairWithBytes } from '../../src/client/keypair-file.js';
import { fundUsdc, USDC_MINT } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { jsonOf } from '../helpers/service.js';

describe('paying with @faremeter/fetch', () => {
  let sandbox: PaidSandbox;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('pays /scan/wallet through the v2 offer and gets the result; exactly 0.02 USDC moves', async () => {
    const keypair = await generateKeypairWithBytes();
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [
      { owner: keypair.signer.address, amount: 1_000_000n },
    ]);
    const wallet = await createLocalWallet('mainnet-beta', keypair.bytes);
    const handler = createPaymentHandler(
      wallet,
      address(USDC_MINT),
      createSolanaRpc(sandbox.rpcServer.url) as never,
    );
    const payFetch = wrap(fetch, { handlers: [handler], retryCount: 0 });
    const payToBefore = await sandbox.usdcBalance(sandbox.payTo);

    const res = await payFetch(`${sandbox.url}/scan/wallet/${sandbox.payTo}`);
    const body = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(typeof body.risk_score, 'number');
    assert.ok(res.headers.get('payment-response'), 'paid through x402 v2 (PAYMENT-SIGNATURE)');
    assert.equal(await sandbox.usdcBalance(keypair.signer.address), 980_000n);
    assert.equal(await sandbox.usdcBalance(sandbox.payTo), payToBefore + 20_000n);
  });
});
