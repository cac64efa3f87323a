/**
 * Which clients pay under each X402_V1_NETWORK value (the README's table). The v2 clients —
 * the official `@x402/fetch` 2.x and faremeter — pay under both: they read the v2 header, which
 * the setting leaves alone. The v1 line of the official client, `x402-fetch` 1.2.0 (pinned), as an agent project that
 * depends on it uses it: `createSigner('solana', base58SecretKey)`, `wrapFetchWithPayment` with
 * the sandbox RPC in `config.svmConfig.rpcUrl`. Under `X402_V1_NETWORK=solana` it pays every paid
 * endpoint, GET and POST, and gets its `X-PAYMENT-RESPONSE`; exactly each price moves on the
 * sandbox chain. Under the default (`solana-mainnet`, the contract's name) it throws a ZodError
 * before paying, and its default price cap (0.10 USDC) refuses four of our prices, nothing paid.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { wrap } from '@faremeter/fetch';
import { createPaymentHandler } from '@faremeter/payment-solana/exact';
import { createLocalWallet } from '@faremeter/wallet-solana';
import { address, createSolanaRpc, getBase58Decoder } from '@solana/kit';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { wrapFetchWithPayment as wrapV2Fetch, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { createSigner, decodeXPaymentResponse, wrapFetchWithPayment } from 'x402-fetch';
import { atomicPrice, orderPriceUsd, PAID_ENDPOINTS } from '../../src/catalog.js';
import { generateKeypairWithBytes } from '../../src/client/keypair-file.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { TOKEN_PROGRAM } from '../../src/solana/programs.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { type PaidSandbox, simulationsOn } from '../helpers/paid-sandbox.js';
import { jsonOf } from '../helpers/service.js';
import { startWatchSandbox, UNHEARD_WEBHOOK, type WatchSandbox } from '../helpers/watch-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const WATCH_HOURS = 2;
/** Above every price we ask for one call (the dearest, /scan/program, is 1.00 USDC). */
const RAISED_CAP = 2_000_000n;

interface PaidCall {
  readonly endpoint: string;
  readonly path: string;
  readonly init?: RequestInit;
  /** Atomic USDC the call costs. */
  readonly price: bigint;
}

const priceOf = (id: string, hours = 1) =>
  BigInt(atomicPrice(orderPriceUsd(PAID_ENDPOINTS.find((e) => e.id === id)!, hours)));

/** A POST as x402-fetch 1.2.0 can repeat it: a string body and a plain-object header map. */
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('which clients pay under each X402_V1_NETWORK value', { timeout: 300_000 }, () => {
  let watching: WatchSandbox;
  let sandbox: PaidSandbox;
  /** The same service with X402_V1_NETWORK=solana, on the same chain and facilitators. */
  let v1Url: string;
  let calls: PaidCall[];
  let payer: { address: string; secret: string };

  before(async () => {
    watching = await startWatchSandbox({ maxWatches: 100, maxWatchesPerSubject: 10 });
    sandbox = watching.sandbox;
    v1Url = (await sandbox.startInstance({}, { X402_V1_NETWORK: 'solana' })).url;
    const keypair = await generateKeypairWithBytes();
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [
      { owner: keypair.signer.address, amount: 20_000_000n },
    ]);
    payer = { address: keypair.signer.address, secret: getBase58Decoder().decode(keypair.bytes) };
    const [simulation] = await simulationsOn(sandbox);
    const unknownTx = getBase58Decoder().decode(new Uint8Array(64).fill(7));
    calls = [
      { endpoint: 'token', path: `/scan/token/${USDC_MINT}`, price: priceOf('token') },
      { endpoint: 'pumpfun', path: `/scan/pumpfun/${USDC_MINT}`, price: priceOf('pumpfun') },
      { endpoint: 'wallet', path: `/scan/wallet/${sandbox.payTo}`, price: priceOf('wallet') },
      { endpoint: 'tx', path: `/verify/tx/${unknownTx}`, price: priceOf('tx') },
      { endpoint: 'program', path: `/scan/program/${TOKEN_PROGRAM}`, price: priceOf('program') },
      {
        endpoint: 'simulate',
        path: '/simulate/tx',
        init: post({ transaction: simulation!.transaction }),
        price: priceOf('simulate'),
      },
      {
        endpoint: 'watch',
        path: '/watch',
        init: post({ kind: 'token', subject: USDC_MINT, webhook: UNHEARD_WEBHOOK, hours: WATCH_HOURS }),
        price: priceOf('watch', WATCH_HOURS),
      },
      {
        // Two distinct wallets, one repeated: two single wallet prices.
        endpoint: 'batch',
        path: '/scan/batch',
        init: post({ kind: 'wallet', subjects: [sandbox.payTo, USDC_MINT, sandbox.payTo] }),
        price: 2n * priceOf('wallet'),
      },
    ];
  });
  after(async () => {
    await watching?.close();
  });

  const v1Fetch = async (cap?: bigint) => {
    const signer = await createSigner('solana', payer.secret);
    return wrapFetchWithPayment(fetch, signer, cap, undefined, {
      svmConfig: { rpcUrl: sandbox.rpcServer.url },
    });
  };
  const balances = async () => ({
    payer: await sandbox.usdcBalance(payer.address as never),
    payTo: await sandbox.usdcBalance(sandbox.payTo),
  });

  it('covers every paid endpoint of the catalog', () => {
    assert.deepEqual(calls.map((c) => c.endpoint).sort(), PAID_ENDPOINTS.map((e) => e.id).sort());
  });

  it('under X402_V1_NETWORK=solana the v1 body names solana, in the sandbox as in mainnet mode; the v2 header and the default instance do not change', async () => {
    for (const call of calls) {
      const offer = await fetch(v1Url + call.path, call.init);
      assert.equal(offer.status, 402, call.path);
      const body = await jsonOf(offer);
      assert.deepEqual(
        body.accepts.map((a: { network: string }) => a.network),
        ['solana'],
        call.path,
      );
      const v2 = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
      assert.equal(v2.accepts[0]!.network, CAIP2, call.path);
      const standard = await jsonOf(await fetch(sandbox.url + call.path, call.init));
      assert.equal(standard.accepts[0].network, 'solana-mainnet', `${call.path} by default`);
    }
    // The same in mainnet mode: the setting does not depend on the mode.
    const mainnet = await sandbox.startInstance({}, { RISK_SCAN_MODE: 'mainnet', X402_V1_NETWORK: 'solana' });
    const offer = await jsonOf(await fetch(`${mainnet.url}/scan/wallet/${sandbox.payTo}`));
    assert.equal(offer.accepts[0].network, 'solana', 'mainnet mode');
  });

  it('under X402_V1_NETWORK=solana, with its cap raised, it pays every paid endpoint: 200, X-PAYMENT-RESPONSE, exactly the price', async () => {
    const pay = await v1Fetch(RAISED_CAP);
    for (const call of calls) {
      // A slot passes between two payments, as on mainnet: x402 1.x's transaction has no nonce of
      // its own, so the blockhash is what tells two payments of one price apart (next test).
      sandbox.chain.warp(1);
      const before = await balances();
      const res = await pay(v1Url + call.path, call.init);
      const body = await jsonOf(res);
      assert.equal(res.status, 200, `${call.path}: ${JSON.stringify(body)}`);
      const header = res.headers.get('x-payment-response');
      assert.ok(header, `${call.path} carries its settlement`);
      const receipt = decodeXPaymentResponse(header);
      assert.equal(receipt.success, true, call.path);
      assert.equal(receipt.network, 'solana', call.path);
      assert.equal(receipt.payer, payer.address, call.path);
      if (call.endpoint === 'watch') {
        assert.match(body.watch_id, /^w_/);
        assert.match(body.baseline.evidence.decision, /^(proceed|caution|avoid|do_not_interact)$/, 'decided');
      } else if (call.endpoint === 'batch') {
        assert.equal(body.results.length, 3);
        assert.deepEqual(body.results[2], body.results[0], 'the repeat is its first answer');
      } else assert.equal(typeof body.risk_score, 'number', call.path);
      const now = await balances();
      assert.equal(now.payer, before.payer - call.price, `${call.path}: the payer paid exactly its price`);
      assert.equal(now.payTo, before.payTo + call.price, `${call.path}: payTo received exactly its price`);
    }
  });

  it('two payments of one price within one blockhash are one transaction: the second is refused payment_used, paid once', async () => {
    const pay = await v1Fetch(RAISED_CAP);
    const [tx, simulate] = ['tx', 'simulate'].map((id) => calls.find((c) => c.endpoint === id)!);
    assert.equal(tx!.price, simulate!.price, 'both cost 0.05 USDC');
    sandbox.chain.warp(1);
    const before = await balances();
    const first = await pay(v1Url + tx!.path);
    assert.equal(first.status, 200, await first.clone().text());
    const second = await pay(v1Url + simulate!.path, simulate!.init);
    const refusal = await jsonOf(second);
    assert.equal(second.status, 402);
    assert.match(refusal.error, /^payment_used: this payment already paid for \/verify\/tx\//);
    const now = await balances();
    assert.equal(
      now.payer,
      before.payer - tx!.price,
      'the one transaction was paid once, for the first call',
    );
    assert.equal(now.payTo, before.payTo + tx!.price);
    // The same two calls a slot apart are two transactions, and both are paid.
    sandbox.chain.warp(1);
    assert.equal((await pay(v1Url + simulate!.path, simulate!.init)).status, 200);
  });

  it('under the default (solana-mainnet) it fails before paying, as it does today: ZodError, nothing paid', async () => {
    const pay = await v1Fetch(RAISED_CAP);
    for (const call of calls) {
      const before = await balances();
      await assert.rejects(
        pay(sandbox.url + call.path, call.init),
        (e: Error) =>
          e.name === 'ZodError' && /invalid_enum_value/.test(e.message) && /solana-mainnet/.test(e.message),
        call.path,
      );
      assert.deepEqual(await balances(), before, `${call.path}: nothing was paid`);
    }
  });

  it('its default cap (0.10 USDC) refuses four of our prices before paying: token, pumpfun, program, a watch over 10 hours', async () => {
    const pay = await v1Fetch();
    const order = { kind: 'token', subject: USDC_MINT, webhook: UNHEARD_WEBHOOK, hours: 11 };
    const dear = [...calls.filter((c) => c.price > 100_000n), { path: '/watch', init: post(order) }];
    assert.deepEqual(
      dear.map((c) => c.path.split('/')[2] ?? 'watch'),
      ['token', 'pumpfun', 'program', 'watch'],
    );
    for (const call of dear) {
      const before = await balances();
      await assert.rejects(pay(v1Url + call.path, call.init), /Payment amount exceeds maximum allowed/);
      assert.deepEqual(await balances(), before, `${call.path}: nothing was paid`);
    }
    const cheap = calls.find((c) => c.endpoint === 'wallet')!;
    sandbox.chain.warp(1);
    assert.equal((await pay(v1Url + cheap.path)).status, 200, 'a price under the cap is paid');
  });

  it('the v2 clients, official @x402/fetch and faremeter, pay under both values', async () => {
    const keypair = await generateKeypairWithBytes();
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [
      { owner: keypair.signer.address, amount: 1_000_000n },
    ]);
    const official = wrapV2Fetch(
      fetch,
      new x402Client().register(CAIP2, new ExactSvmScheme(keypair.signer, { rpcUrl: sandbox.rpcServer.url })),
    );
    const wallet = await createLocalWallet('mainnet-beta', keypair.bytes);
    const handler = createPaymentHandler(
      wallet,
      address(USDC_MINT),
      createSolanaRpc(sandbox.rpcServer.url) as never,
    );
    const faremeter = wrap(fetch, { handlers: [handler], retryCount: 0 });
    const wallet20 = calls.find((c) => c.endpoint === 'wallet')!;
    for (const [client, pay] of [
      ['@x402/fetch', official],
      ['faremeter', faremeter],
    ] as const) {
      for (const base of [sandbox.url, v1Url]) {
        sandbox.chain.warp(1);
        const before = await sandbox.usdcBalance(keypair.signer.address);
        const res = await pay(base + wallet20.path);
        assert.equal(res.status, 200, `${client} at ${base}: ${await res.clone().text()}`);
        assert.ok(res.headers.get('payment-response'), `${client}: a v2 settlement`);
        assert.equal(await sandbox.usdcBalance(keypair.signer.address), before - wallet20.price, client);
      }
    }
  });
});
