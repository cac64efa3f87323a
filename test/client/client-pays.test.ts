/**
 * The client package (@solana-risk-scan/client) against the real sandbox, paying with the real
 * x402 libraries: each endpoint's result verified and exactly its price moved; a 402 tampered on
 * the way (another payee, asset, network, a higher price) refused with nothing paid; a result
 * altered by one byte, with a broken signature or with none, rejected (and counted as spent);
 * the session budget and the per-call cap stopping a call before it pays.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KeyPairSigner } from '@solana/kit';
import {
  DECISIONS,
  ENDPOINTS,
  FLAG_CODES,
  gate,
  type Paid,
  RiskScanClient,
  type RiskScanClientOptions,
  RiskScanError,
  type ScanResult,
} from '@solana-risk-scan/client';
import { atomicPrice, orderPriceUsd, PAID_ENDPOINTS } from '../../src/catalog.js';
import { type PaidSandbox, simulationsOn } from '../helpers/paid-sandbox.js';
import { startTamperingProxy, type TamperingProxy } from '../helpers/tampering-proxy.js';
import { startWatchSandbox, UNHEARD_WEBHOOK, type WatchSandbox } from '../helpers/watch-sandbox.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const OTHER_ADDRESS = 'So11111111111111111111111111111111111111112';

/** The rejection of `call`, asserted to be a RiskScanError of `code`. */
async function refusedWith(call: Promise<unknown>, code: string): Promise<RiskScanError> {
  const error = await call.then(
    (paid) => assert.fail(`expected ${code}, got a result: ${JSON.stringify(paid)}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof RiskScanError, `a RiskScanError, not ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('the client package on the paid sandbox', { timeout: 300_000 }, () => {
  let watching: WatchSandbox;
  let sandbox: PaidSandbox;
  let proxy: TamperingProxy;
  before(async () => {
    // The facilitator's verify of a first payment on a loaded machine may take seconds.
    watching = await startWatchSandbox(
      { maxWatches: 10, maxWatchesPerSubject: 10 },
      { FACILITATOR_TIMEOUT_MS: '20000', SETTLE_TIMEOUT_MS: '20000' },
    );
    sandbox = watching.sandbox;
    proxy = await startTamperingProxy(sandbox.url);
  });
  after(async () => {
    await proxy?.close();
    await watching?.close();
  });

  /** A client of `payer` against the proxy, pinned to the sandbox's payee. */
  const clientOf = (payer: KeyPairSigner, more: Partial<RiskScanClientOptions> = {}) =>
    new RiskScanClient({
      apiUrl: proxy.url,
      rpcUrl: sandbox.rpcServer.url,
      signer: payer,
      payTo: sandbox.payTo,
      ...more,
    });

  /** Runs `call` with a fresh payer; asserts how much it paid by the chain. */
  async function paying<T>(
    usdc: bigint,
    call: (client: RiskScanClient, payer: KeyPairSigner) => Promise<T>,
    more: Partial<RiskScanClientOptions> = {},
  ): Promise<{ outcome: PromiseSettledResult<T>; moved: bigint; client: RiskScanClient }> {
    const payer = await sandbox.newPayer(usdc);
    const client = clientOf(payer, more);
    const [outcome] = await Promise.allSettled([call(client, payer)]);
    return { outcome: outcome!, moved: usdc - (await sandbox.usdcBalance(payer.address)), client };
  }

  describe('a successful call of each endpoint', () => {
    const priceOf = (id: string, hours = 1) =>
      BigInt(atomicPrice(orderPriceUsd(PAID_ENDPOINTS.find((e) => e.id === id)!, hours)));

    async function paysExactly<T>(id: string, call: (client: RiskScanClient) => Promise<Paid<T>>, hours = 1) {
      proxy.set({ kind: 'none' });
      const payTo = await sandbox.usdcBalance(sandbox.payTo);
      const { outcome, moved, client } = await paying(5_000_000n, call, { budgetUsd: 5 });
      assert.equal(outcome.status, 'fulfilled', outcome.status === 'rejected' ? String(outcome.reason) : '');
      const paid = (outcome as PromiseFulfilledResult<Paid<T>>).value;
      assert.equal(moved, priceOf(id, hours), `${id}: exactly its price left the payer`);
      assert.equal(
        (await sandbox.usdcBalance(sandbox.payTo)) - payTo,
        priceOf(id, hours),
        'and reached payTo',
      );
      assert.equal(BigInt(atomicPrice(paid.paidUsd)), priceOf(id, hours));
      assert.equal(client.spentUsd, paid.paidUsd);
      assert.match(paid.transaction ?? '', /^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'the settlement transaction');
      return paid;
    }

    const isScanResult = (result: ScanResult) => {
      assert.equal(typeof result.risk_score, 'number');
      assert.ok(
        DECISIONS.some((d) => d === result.evidence?.decision),
        `decision ${result.evidence?.decision}`,
      );
      assert.equal(gate(result).decision, result.evidence?.decision);
      assert.ok(Array.isArray(result.reasoning));
      for (const flag of result.flags) assert.ok(FLAG_CODES.includes(flag), `${flag} is a known code`);
    };

    let settledTx = '';
    it('token', async () => {
      const paid = await paysExactly('token', (c) => c.scanToken(USDC));
      isScanResult(paid.result);
      settledTx = paid.transaction!;
    });
    it('pumpfun', async () =>
      isScanResult((await paysExactly('pumpfun', (c) => c.scanPumpfun(USDC))).result));
    it('wallet', async () =>
      isScanResult((await paysExactly('wallet', (c) => c.scanWallet(sandbox.payer.address))).result));
    it('tx (the settlement of the token call)', async () =>
      isScanResult((await paysExactly('tx', (c) => c.verifyTx(settledTx))).result));
    it('program', async () =>
      isScanResult((await paysExactly('program', (c) => c.scanProgram(TOKEN_PROGRAM))).result));
    it('simulate', async () => {
      const transfer = (await simulationsOn(sandbox)).find((s) => s.name === 'sim:usdc-transfer')!;
      isScanResult(
        (await paysExactly('simulate', (c) => c.simulateTx({ transaction: transfer.transaction }))).result,
      );
    });
    it('watch (3 hours)', async () => {
      const order = { kind: 'token', subject: USDC, webhook: UNHEARD_WEBHOOK, hours: 3 };
      const paid = await paysExactly('watch', (c) => c.watch(order), 3);
      assert.equal(typeof (paid.result as { watch_id?: unknown }).watch_id, 'string');
    });
    it('covers every paid endpoint', () => {
      assert.deepEqual(ENDPOINTS.map((e) => e.id).sort(), PAID_ENDPOINTS.map((e) => e.id).sort());
    });
  });

  describe('a tampered 402 is refused with nothing paid', () => {
    const cases: [string, string, (o: Record<string, unknown>) => Record<string, unknown>][] = [
      ['payee_mismatch', 'another payee', (o) => ({ ...o, payTo: OTHER_ADDRESS })],
      ['asset_mismatch', 'another asset', (o) => ({ ...o, asset: OTHER_ADDRESS })],
      [
        'network_mismatch',
        'another network',
        (o) => ({ ...o, network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }),
      ],
      ['price_above_catalog', 'a higher price', (o) => ({ ...o, amount: '300001' })],
    ];
    for (const [code, what, change] of cases) {
      it(`${what}: ${code}, the payer's USDC unchanged`, async () => {
        proxy.set({ kind: 'offer', change: change as never });
        const { outcome, moved, client } = await paying(1_000_000n, (c) => c.scanToken(USDC));
        assert.equal(outcome.status, 'rejected');
        const error = await refusedWith(Promise.reject((outcome as PromiseRejectedResult).reason), code);
        assert.equal(error.paid, false);
        assert.match(error.message, /Nothing was paid\.$/);
        assert.equal(moved, 0n, 'nothing left the payer');
        assert.equal(client.spentUsd, 0);
      });
    }
  });

  it("an input the service refuses: http_error carrying the service's code as its reason, nothing paid", async () => {
    proxy.set({ kind: 'none' });
    const { outcome, moved } = await paying(1_000_000n, (c) => c.scanToken('abc'));
    const error = await refusedWith(Promise.reject((outcome as PromiseRejectedResult).reason), 'http_error');
    assert.equal(error.reason, 'base58_length');
    assert.equal(error.paid, false);
    assert.equal(moved, 0n);
  });

  describe("a result not signed by the service's key is rejected", () => {
    const cases: [string, 'body-byte' | 'signature' | 'unsigned', string][] = [
      ['one byte of the body changed', 'body-byte', 'bad_signature'],
      ['the signature changed', 'signature', 'bad_signature'],
      ['no signature', 'unsigned', 'unsigned_result'],
    ];
    for (const [what, kind, code] of cases) {
      it(`${what}: ${code}, counted as spent`, async () => {
        proxy.set({ kind });
        const before = proxy.tampered;
        const { outcome, moved, client } = await paying(1_000_000n, (c) =>
          c.scanWallet(sandbox.payer.address),
        );
        assert.equal(proxy.tampered, before + 1, 'the paid answer was tampered with');
        const error = await refusedWith(Promise.reject((outcome as PromiseRejectedResult).reason), code);
        assert.equal(error.paid, true, 'money moved before the result was read');
        assert.match(
          String(error.details.settlement?.transaction),
          /^[1-9A-HJ-NP-Za-km-z]{64,88}$/,
          'the settlement receipt to claim it with',
        );
        assert.ok(error.details.body, 'the result as received');
        assert.equal(moved, 20_000n);
        assert.equal(client.spentUsd, 0.02, 'the budget counts it');
      });
    }
  });

  it('a result given without a payment asked for: unsigned_result, nothing paid', async () => {
    const forged = {
      risk_score: 0,
      flags: [],
      confidence: 1,
      summary: 'safe',
      recommendation: 'buy',
      reasoning: [],
      evidence: { decision: 'proceed' },
    };
    proxy.set({ kind: 'free-result', result: forged });
    const { outcome, moved, client } = await paying(1_000_000n, (c) => c.scanToken(USDC));
    const error = await refusedWith(
      Promise.reject((outcome as PromiseRejectedResult).reason),
      'unsigned_result',
    );
    assert.equal(error.paid, false);
    assert.equal(moved, 0n, 'nothing left the payer');
    assert.equal(client.spentUsd, 0);
  });

  it('a key set that cannot be read stops the call before it pays: signing_key_unavailable, nothing paid', async () => {
    proxy.set({ kind: 'keys-unavailable' });
    const before = proxy.tampered;
    const { outcome, moved, client } = await paying(1_000_000n, (c) => c.scanWallet(sandbox.payer.address));
    assert.ok(proxy.tampered > before, 'the key set was asked for');
    const error = await refusedWith(
      Promise.reject((outcome as PromiseRejectedResult).reason),
      'signing_key_unavailable',
    );
    assert.equal(error.paid, false);
    assert.match(error.message, /Nothing was paid\.$/);
    assert.equal(moved, 0n, 'nothing left the payer');
    assert.equal(client.spentUsd, 0);
  });

  it('a paid result whose receipt cannot be read is still delivered, with no transaction named', async () => {
    proxy.set({ kind: 'receipt-garbled' });
    const { outcome, moved, client } = await paying(1_000_000n, (c) => c.scanWallet(sandbox.payer.address));
    assert.equal(outcome.status, 'fulfilled', String((outcome as PromiseRejectedResult).reason));
    const paid = (outcome as PromiseFulfilledResult<Paid<ScanResult>>).value;
    assert.equal(paid.transaction, null);
    assert.ok(Array.isArray(paid.result.flags));
    assert.equal(moved, 20_000n);
    assert.equal(client.spentUsd, 0.02);
  });

  describe('the budget and the cap stop a call before it pays', () => {
    it('a session budget with less left than the price: over_budget, the payer unchanged', async () => {
      proxy.set({ kind: 'none' });
      const { outcome, moved, client } = await paying(
        2_000_000n,
        async (c) => {
          await c.scanWallet(sandbox.payer.address); // 0.02 of 0.30
          return c.scanToken(USDC); // 0.30 > 0.28 left
        },
        { budgetUsd: 0.3 },
      );
      const error = await refusedWith(
        Promise.reject((outcome as PromiseRejectedResult).reason),
        'over_budget',
      );
      assert.equal(error.paid, false);
      assert.equal(moved, 20_000n, 'only the first call paid');
      assert.equal(client.spentUsd, 0.02);
      assert.equal(client.remainingUsd, 0.28);
    });

    it('a price over the per-call cap: over_call_cap, the payer unchanged', async () => {
      proxy.set({ kind: 'none' });
      const { outcome, moved } = await paying(2_000_000n, (c) => c.scanProgram(TOKEN_PROGRAM), {
        maxPerCallUsd: 0.5,
      });
      const error = await refusedWith(
        Promise.reject((outcome as PromiseRejectedResult).reason),
        'over_call_cap',
      );
      assert.equal(error.paid, false);
      assert.equal(moved, 0n);
    });
  });
});
