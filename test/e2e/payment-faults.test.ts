/**
 * Faults in the facilitator, the settlement and the scan: each gives the documented status,
 * and the payer never loses money without its result.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reasonText } from '../../src/reasons.js';
import type { Scanner } from '../../src/scans/scanner.js';
import { ScanFailedError } from '../../src/scans/scanner.js';
import { selling } from '../../src/service/index.js';
import { type FaultPlan, faultyFetch } from '../helpers/faulty-facilitator-fetch.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 20_000n; // /scan/wallet

async function withSandbox(
  plan: FaultPlan,
  scanner: Scanner,
  run: (s: PaidSandbox, url: string) => Promise<void>,
  env: Record<string, string> = {},
) {
  const sandbox = await startPaidSandbox(env, {
    mode: selling(probeScanners(scanner)),
    facilitatorFetch: faultyFetch(plan),
  });
  try {
    await run(sandbox, `${sandbox.url}/scan/wallet/${sandbox.payer.address}`);
  } finally {
    await sandbox.close();
  }
}

async function paymentFor(sandbox: PaidSandbox, url: string): Promise<string> {
  const offer = await offerOf(url);
  return encodeHeader(await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl));
}

describe('facilitator faults during verify: 402 with a reason, nothing charged, payment reusable', () => {
  for (const fault of ['down', 'slow', 'garbage', 'http-500'] as const) {
    it(`verify ${fault}`, async () => {
      await withSandbox({ verify: fault, times: 1 }, probeScanner, async (s, url) => {
        const header = await paymentFor(s, url);
        const before = await s.balances();
        const res = await pay(url, header);
        const body = await jsonOf(res);
        assert.equal(res.status, 402);
        assert.equal(refusalCode(body), 'verify_unavailable');
        assert.equal(body.risk_score, undefined);
        assert.deepEqual(await s.balances(), before);
        // The facilitator was marked unhealthy, and the same payment works once it is back.
        const again = await pay(url, header);
        assert.equal(again.status, 200, JSON.stringify(await jsonOf(again.clone())));
        assert.equal((await s.balances()).payTo, before.payTo + PRICE);
      });
    });
  }
});

describe('settlement faults', () => {
  it('settle answer lost after the transfer landed: the chain is checked and the payer gets the result', async () => {
    await withSandbox({ settle: 'lost-after-work' }, probeScanner, async (s, url) => {
      const before = await s.balances();
      const res = await pay(url, await paymentFor(s, url));
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(typeof body.risk_score, 'number');
      assert.deepEqual(await s.balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
    });
  });

  it('settle answer lost after the transfer landed: the receipt names the transaction found on chain', async () => {
    await withSandbox({ settle: 'lost-after-work' }, probeScanner, async (s, url) => {
      const res = await pay(url, await paymentFor(s, url));
      assert.equal(res.status, 200);
      const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString());
      assert.equal(receipt.success, true);
      assert.notEqual(receipt.transaction, '');
      assert.ok(s.chain.transaction(receipt.transaction), 'the named transaction is on chain');
    });
  });

  it('a refusal given after sending (invalid_transaction_state) is never "nothing was charged": landed, so delivered', async () => {
    await withSandbox({ settle: 'refused-after-work' }, probeScanner, async (s, url) => {
      const before = await s.balances();
      const res = await pay(url, await paymentFor(s, url));
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(typeof body.risk_score, 'number');
      assert.deepEqual(await s.balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
    });
  });

  it('facilitator says "pending" after sending: the signature is looked up and the result delivered', async () => {
    await withSandbox({ settle: 'pending-after-work' }, probeScanner, async (s, url) => {
      const res = await pay(url, await paymentFor(s, url));
      assert.equal(res.status, 200);
      const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString());
      assert.equal(receipt.success, true);
      assert.ok(s.chain.transaction(receipt.transaction));
    });
  });

  it('settle fails before sending (HTTP 500): 402, nothing charged; once the blockhash expires the payment is released', async () => {
    await withSandbox({ settle: 'http-500' }, probeScanner, async (s, url) => {
      const header = await paymentFor(s, url);
      const before = await s.balances();
      const first = await jsonOf(await pay(url, header));
      assert.equal(refusalCode(first), 'settlement_unconfirmed');
      assert.equal(first.risk_score, undefined, 'no result without a landed payment');
      assert.deepEqual(await s.balances(), before);
      const other = url.replace(/[^/]+$/, 'So11111111111111111111111111111111111111112');
      const elsewhere = await jsonOf(await pay(other, header));
      const path = new URL(url).pathname;
      assert.equal(
        elsewhere.error,
        reasonText('payment_settling_for_another', { path }),
        'kept for its own path',
      );
      s.chain.warp(200);
      const second = await jsonOf(await pay(url, header));
      assert.equal(refusalCode(second), 'payment_not_landed');
      assert.deepEqual(await s.balances(), before);
    });
  });

  it('a definite settle refusal is a 402 with a failed receipt, and the payment is released', async () => {
    await withSandbox({ settle: 'refused', times: 1 }, probeScanner, async (s, url) => {
      const header = await paymentFor(s, url);
      const before = await s.balances();
      const res = await pay(url, header);
      const body = await jsonOf(res);
      assert.equal(res.status, 402);
      assert.equal(body.error, reasonText('settlement_failed', { detail: 'transaction_simulation_failed' }));
      const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString());
      assert.equal(receipt.success, false);
      assert.deepEqual(await s.balances(), before);
      assert.equal((await pay(url, header)).status, 200, 'released: the same payment can be settled later');
    });
  });

  it('settle answers garbage: treated as unknown, checked on chain, 402 "unconfirmed", nothing charged', async () => {
    await withSandbox({ settle: 'garbage' }, probeScanner, async (s, url) => {
      const before = await s.balances();
      const res = await pay(url, await paymentFor(s, url));
      assert.equal(res.status, 402);
      assert.equal(refusalCode(await jsonOf(res)), 'settlement_unconfirmed');
      assert.deepEqual(await s.balances(), before);
    });
  });
});

describe('scan faults', () => {
  it('a failed scan is a 500, nothing is settled, and the same payment then buys a result', async () => {
    let fail = true;
    const flaky: Scanner = async (subject, ctx) => {
      if (fail) throw new ScanFailedError('RPC unreachable');
      return probeScanner(subject, ctx);
    };
    await withSandbox({}, flaky, async (s, url) => {
      const header = await paymentFor(s, url);
      const before = await s.balances();
      const res = await pay(url, header);
      const body = await jsonOf(res);
      assert.equal(res.status, 500);
      assert.equal(body.error, 'scan_failed');
      assert.deepEqual(await s.balances(), before);
      fail = false;
      const again = await pay(url, header);
      assert.equal(again.status, 200);
      assert.equal((await s.balances()).payTo, before.payTo + PRICE);
    });
  });

  it('a scan past its deadline is a 500 and nothing is settled', async () => {
    const hanging: Scanner = () => new Promise(() => undefined);
    await withSandbox(
      {},
      hanging,
      async (s, url) => {
        const before = await s.balances();
        const res = await pay(url, await paymentFor(s, url));
        assert.equal(res.status, 500);
        assert.deepEqual(await s.balances(), before);
      },
      { SCAN_TIMEOUT_MS: '800' },
    );
  });

  it('a scanner that returns an out-of-range score is a 500, never a sold result', async () => {
    const broken: Scanner = async (subject, ctx) => {
      const { result } = await probeScanner(subject, ctx);
      return { result: { ...result, risk_score: 1.5 } };
    };
    await withSandbox({}, broken, async (s, url) => {
      const before = await s.balances();
      const res = await pay(url, await paymentFor(s, url));
      assert.equal(res.status, 500);
      assert.deepEqual(await s.balances(), before);
    });
  });
});
