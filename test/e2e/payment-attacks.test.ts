/**
 * Every way we know to pay wrongly or to pay once and take twice, against the real gate,
 * facilitators and chain. Each case asserts the status, that no scan result leaks, and that
 * no money moved.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import type { PaymentRequirements } from '@x402/core/types';
import type { ReasonCode } from '../../src/reasons.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v1Payment, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 300_000n; // /scan/token

describe('payment attacks', () => {
  let sandbox: PaidSandbox;
  let url: string;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    url = `${sandbox.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`;
  });
  after(async () => {
    await sandbox?.close();
  });

  const balances = async (payer = sandbox.payer.address) => ({
    payer: await sandbox.usdcBalance(payer),
    payTo: await sandbox.usdcBalance(sandbox.payTo),
  });

  /** A correct v2 payment for the token endpoint, before any tampering. */
  async function goodPayment(overrides: Partial<PaymentRequirements> = {}, payer = sandbox.payer) {
    const offer = await offerOf(url);
    return v2Payment(payer, sandbox.rpcServer.url, { ...offer.v2, ...overrides }, offer.resourceUrl);
  }

  async function expectRefused(res: Response, status = 402, code?: ReasonCode) {
    const text = await res.text();
    assert.equal(res.status, status, text);
    const body = JSON.parse(text);
    assert.equal(body.risk_score, undefined, 'no scan result leaks');
    if (status === 402) {
      assert.equal(body.x402Version, 1);
      assert.ok(body.accepts.length === 1, 'the offer is repeated');
      if (code) assert.equal(refusalCode(body), code);
    }
  }

  const cases: {
    name: string;
    status?: number;
    code?: ReasonCode;
    header: () => Promise<Record<string, string>>;
  }[] = [
    { name: 'no payment header', code: 'payment_required', header: async () => ({}) },
    {
      name: 'garbage base64',
      code: 'header_not_base64_json',
      header: async () => ({ 'PAYMENT-SIGNATURE': '!!!not base64!!!' }),
    },
    {
      name: 'valid base64 of non-JSON',
      code: 'header_not_base64_json',
      header: async () => ({ 'X-PAYMENT': Buffer.from('hello, not json').toString('base64') }),
    },
    {
      name: 'wrong x402Version',
      code: 'version_unsupported',
      header: async () => ({
        'PAYMENT-SIGNATURE': encodeHeader({ ...(await goodPayment()), x402Version: 3 }),
      }),
    },
    {
      name: 'wrong scheme',
      code: 'scheme_not_accepted',
      header: async () => {
        const p = await goodPayment();
        return { 'PAYMENT-SIGNATURE': encodeHeader({ ...p, accepted: { ...p.accepted, scheme: 'upto' } }) };
      },
    },
    {
      name: 'unknown network',
      code: 'network_not_accepted',
      header: async () => {
        const offer = await offerOf(url);
        const p = await v1Payment(sandbox.payer, sandbox.rpcServer.url, offer.v1, 'base');
        return { 'X-PAYMENT': encodeHeader(p) };
      },
    },
    {
      name: 'amount one unit low',
      code: 'amount_not_price',
      header: async () => ({
        'PAYMENT-SIGNATURE': encodeHeader(await goodPayment({ amount: String(PRICE - 1n) })),
      }),
    },
    {
      name: 'amount one unit high',
      code: 'amount_not_price',
      header: async () => ({
        'PAYMENT-SIGNATURE': encodeHeader(await goodPayment({ amount: String(PRICE + 1n) })),
      }),
    },
    {
      name: 'amount one unit low, with the accepted terms forged to the right price',
      code: 'transfer_amount',
      header: async () => {
        const p = await goodPayment({ amount: String(PRICE - 1n) });
        return {
          'PAYMENT-SIGNATURE': encodeHeader({ ...p, accepted: { ...p.accepted, amount: String(PRICE) } }),
        };
      },
    },
    {
      name: 'wrong payTo',
      code: 'pay_to_not_ours',
      header: async () => {
        const other = await generateKeyPairSigner();
        await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [{ owner: other.address, amount: 0n }]);
        return { 'PAYMENT-SIGNATURE': encodeHeader(await goodPayment({ payTo: other.address })) };
      },
    },
    {
      name: 'wrong payTo, with the accepted terms forged to ours',
      code: 'transfer_destination',
      header: async () => {
        const other = await generateKeyPairSigner();
        await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [{ owner: other.address, amount: 0n }]);
        const p = await goodPayment({ payTo: other.address });
        return {
          'PAYMENT-SIGNATURE': encodeHeader({ ...p, accepted: { ...p.accepted, payTo: sandbox.payTo } }),
        };
      },
    },
    {
      name: 'wrong asset (a look-alike mint with 6 decimals)',
      code: 'asset_not_usdc',
      header: async () => {
        const fake = await lookAlikeMint();
        return { 'PAYMENT-SIGNATURE': encodeHeader(await goodPayment({ asset: fake })) };
      },
    },
    {
      name: 'wrong asset, with the accepted terms forged to USDC',
      code: 'transfer_asset',
      header: async () => {
        const fake = await lookAlikeMint();
        const p = await goodPayment({ asset: fake });
        return {
          'PAYMENT-SIGNATURE': encodeHeader({
            ...p,
            accepted: { ...p.accepted, asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
          }),
        };
      },
    },
    {
      name: 'wrong fee payer',
      code: 'fee_payer_not_ours',
      header: async () => {
        const stranger = await generateKeyPairSigner();
        const offer = await offerOf(url);
        return {
          'PAYMENT-SIGNATURE': encodeHeader(
            await goodPayment({ extra: { ...offer.v2.extra, feePayer: stranger.address } }),
          ),
        };
      },
    },
    {
      name: 'unsigned transaction',
      code: 'signature_missing',
      header: async () => {
        const p = await goodPayment();
        const wire = Buffer.from(p.payload.transaction, 'base64');
        wire.fill(0, 1 + 64, 1 + 128); // the payer's signature (the fee payer's slot is empty anyway)
        return {
          'PAYMENT-SIGNATURE': encodeHeader({ ...p, payload: { transaction: wire.toString('base64') } }),
        };
      },
    },
    {
      name: 'signature of another message',
      code: 'signature_invalid',
      header: async () => {
        const a = Buffer.from((await goodPayment()).payload.transaction, 'base64');
        const p = await goodPayment();
        const b = Buffer.from(p.payload.transaction, 'base64');
        a.copy(b, 1 + 64, 1 + 64, 1 + 128); // signature from a different (memo-nonce) message
        return {
          'PAYMENT-SIGNATURE': encodeHeader({ ...p, payload: { transaction: b.toString('base64') } }),
        };
      },
    },
    {
      name: 'expired blockhash',
      code: 'payment_refused',
      header: async () => {
        const p = await goodPayment();
        sandbox.chain.warp(200); // past the 150-block lifetime of its blockhash
        return { 'PAYMENT-SIGNATURE': encodeHeader(p) };
      },
    },
    {
      name: 'payer without funds',
      code: 'payment_refused',
      header: async () => {
        const poor = await sandbox.newPayer(0n);
        return { 'PAYMENT-SIGNATURE': encodeHeader(await goodPayment({}, poor)) };
      },
    },
    {
      name: 'payment header between 16 and 64 KiB',
      code: 'header_too_large',
      header: async () => ({ 'PAYMENT-SIGNATURE': 'A'.repeat(40 * 1024) }),
    },
    {
      name: 'payment header over 64 KiB',
      status: 431,
      header: async () => ({ 'PAYMENT-SIGNATURE': 'A'.repeat(65 * 1024) }),
    },
  ];

  async function lookAlikeMint(): Promise<string> {
    const { installLookAlikeMint } = await import('../helpers/look-alike-mint.js');
    return installLookAlikeMint(sandbox);
  }

  for (const c of cases) {
    it(`${c.name} → ${c.status ?? 402}, nothing leaks, no money moves`, async () => {
      const headers = await c.header();
      const before = await balances();
      await expectRefused(await fetch(url, { headers }), c.status ?? 402, c.code);
      assert.deepEqual(await balances(), before);
    });
  }

  it('the same payment replayed sequentially returns the stored response and charges once', async () => {
    const header = encodeHeader(await goodPayment());
    const before = await balances();
    const first = await pay(url, header);
    const firstBody = await first.text();
    assert.equal(first.status, 200, firstBody);
    for (let i = 0; i < 3; i++) {
      const again = await pay(url, header);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), firstBody, 'same body, same request_id');
      assert.ok(again.headers.get('payment-response'));
    }
    assert.deepEqual(await balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
  });

  it('the same payment sent 20 times at once settles exactly once', async () => {
    const header = encodeHeader(await goodPayment());
    const before = await balances();
    const settlementsBefore = sandbox.chain.signaturesFor(sandbox.payer.address).length;
    const responses = await Promise.all(Array.from({ length: 20 }, () => pay(url, header)));
    const bodies = await Promise.all(
      responses.map(async (r) => ({ status: r.status, body: await jsonOf(r) })),
    );
    const ok = bodies.filter((b) => b.status === 200);
    assert.ok(ok.length >= 1, 'the payer gets its result');
    assert.ok(
      bodies.every((b) => b.status === 200 || b.status === 402),
      JSON.stringify(bodies.map((b) => b.status)),
    );
    for (const b of bodies.filter((x) => x.status === 402))
      assert.equal(refusalCode(b.body), 'payment_in_use');
    assert.equal(new Set(ok.map((b) => b.body.request_id)).size, 1, 'every 200 is the one stored response');
    assert.deepEqual(await balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
    assert.equal(sandbox.chain.signaturesFor(sandbox.payer.address).length, settlementsBefore + 1);
  });

  it('a settled payment presented for another subject at the same price buys nothing there, and still gives its own result', async () => {
    const header = encodeHeader(await goodPayment());
    const before = await balances();
    const first = await pay(url, header);
    const firstBody = await first.text();
    assert.equal(first.status, 200, firstBody);
    const other = `${sandbox.url}/scan/token/So11111111111111111111111111111111111111112`;
    const elsewhere = await pay(other, header);
    await expectRefused(elsewhere, 402, 'payment_paid_for_another');
    const again = await pay(url, header);
    assert.equal(again.status, 200);
    assert.equal(await again.text(), firstBody, 'its own result, as stored');
    assert.deepEqual(await balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
  });

  it('HEAD with a valid payment takes no money and delivers nothing; the payment still buys the GET', async () => {
    const header = encodeHeader(await goodPayment());
    const before = await balances();
    const head = await fetch(url, { method: 'HEAD', headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(head.status, 402);
    assert.equal(head.headers.get('payment-response'), null, 'no receipt');
    const offer = JSON.parse(Buffer.from(head.headers.get('payment-required')!, 'base64').toString());
    assert.equal(refusalCode(offer), 'payment_with_head', 'the offer is repeated with the reason');
    assert.deepEqual(await balances(), before, 'nothing was charged');
    const get = await pay(url, header);
    assert.equal(get.status, 200, await get.clone().text());
    assert.ok(((await get.json()) as { risk_score?: number }).risk_score !== undefined);
    assert.deepEqual(await balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
  });

  it('a v2 payment presented in X-PAYMENT and a v1 payment in PAYMENT-SIGNATURE are both read by their version', async () => {
    const p = await goodPayment();
    const res = await pay(url, encodeHeader(p), 'X-PAYMENT');
    assert.equal(res.status, 200, await res.text());
  });
});
