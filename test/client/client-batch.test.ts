/**
 * RiskScanClient.scanBatch against the real paid sandbox, paying with the real x402 libraries
 * through the client's one payment path: a batch is paid once, at the operator's discounted sum
 * of its distinct subjects' single prices, and answered whole, verified and in order; the price
 * check knows the per-item rule (a 402 asking more than the distinct items at their single price
 * is refused, nothing paid), the budget and the per-call cap hold a batch at its per-item price,
 * and a batch body altered on the way is refused as any paid result is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KeyPairSigner } from '@solana/kit';
import {
  type BatchResult,
  catalogUnits,
  type Paid,
  RiskScanClient,
  type RiskScanClientOptions,
  RiskScanError,
} from '@solana-risk-scan/client';
import { atomicPrice, GET_ENDPOINTS } from '../../src/catalog.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { startTamperingProxy, type TamperingProxy } from '../helpers/tampering-proxy.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const DISCOUNT_PERCENT = 10n;
const TOKEN_PRICE = BigInt(atomicPrice(GET_ENDPOINTS.find((e) => e.id === 'token')!.price.usd));

/** The rejection of `outcome`, asserted to be a RiskScanError of `code`. */
function refusedWith(outcome: PromiseSettledResult<unknown>, code: string): RiskScanError {
  assert.equal(outcome.status, 'rejected', `expected ${code}, got a result`);
  const error = (outcome as PromiseRejectedResult).reason;
  assert.ok(error instanceof RiskScanError, `a RiskScanError, not ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('the client pays a batch on the paid sandbox', { timeout: 300_000 }, () => {
  let sandbox: PaidSandbox;
  let proxy: TamperingProxy;
  before(async () => {
    // The facilitator's verify of a first payment on a loaded machine may take seconds.
    sandbox = await startPaidSandbox(
      {
        BATCH_DISCOUNT_PERCENT: String(DISCOUNT_PERCENT),
        FACILITATOR_TIMEOUT_MS: '20000',
        SETTLE_TIMEOUT_MS: '20000',
      },
      { mode: selling(SCANNERS) },
    );
    proxy = await startTamperingProxy(sandbox.url);
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  /** Two distinct tokens, the first repeated: a batch of three places and two items. */
  const order = () => [USDC, sandbox.payer.address, USDC];

  /** Runs `call` with a fresh payer's client; how it ended and what left the payer, by the chain. */
  async function paying<T>(
    call: (client: RiskScanClient) => Promise<T>,
    more: Partial<RiskScanClientOptions> = {},
  ): Promise<{ outcome: PromiseSettledResult<T>; moved: bigint; client: RiskScanClient }> {
    const usdc = 2_000_000n;
    const payer: KeyPairSigner = await sandbox.newPayer(usdc);
    const client = new RiskScanClient({
      apiUrl: proxy.url,
      rpcUrl: sandbox.rpcServer.url,
      signer: payer,
      payTo: sandbox.payTo,
      ...more,
    });
    const [outcome] = await Promise.allSettled([call(client)]);
    return { outcome: outcome!, moved: usdc - (await sandbox.usdcBalance(payer.address)), client };
  }

  it('is paid once, at the distinct items less the discount, and answered whole, verified and in order', async () => {
    proxy.set({ kind: 'none' });
    const payTo = await sandbox.usdcBalance(sandbox.payTo);
    const { outcome, moved, client } = await paying((c) => c.scanBatch('token', order()));
    assert.equal(outcome.status, 'fulfilled', String((outcome as PromiseRejectedResult).reason));
    const paid = (outcome as PromiseFulfilledResult<Paid<BatchResult>>).value;
    const price = (2n * TOKEN_PRICE * (100n - DISCOUNT_PERCENT)) / 100n;
    assert.equal(moved, price, 'two items at the token price, less 10 %, left the payer');
    assert.equal((await sandbox.usdcBalance(sandbox.payTo)) - payTo, price, 'and reached payTo');
    assert.equal(BigInt(atomicPrice(paid.paidUsd)), price);
    assert.equal(client.spentUsd, paid.paidUsd);
    assert.match(paid.transaction ?? '', /^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'the settlement transaction');
    const batch = paid.result;
    assert.equal(batch.kind, 'token');
    assert.equal(batch.charged_items, 2);
    assert.equal(batch.results.length, 3, 'one result per place');
    assert.deepEqual(batch.results[2], batch.results[0], 'the repeat answered as its first place');
    assert.notDeepEqual(batch.results[1]!.evidence, batch.results[0]!.evidence, 'each place its subject');
  });

  it("the price check knows the per-item rule: a 402 asking more than the distinct items' single prices is refused, nothing paid", async () => {
    const body = JSON.stringify({ kind: 'token', subjects: order() });
    assert.equal(catalogUnits('POST', '/scan/batch', body), 2n * TOKEN_PRICE, 'a repeat is priced once');
    // Three tokens' price: what a check counting places, not items, would let through.
    proxy.set({ kind: 'offer', change: (o) => ({ ...o, amount: String(3n * TOKEN_PRICE) }) });
    const { outcome, moved, client } = await paying((c) => c.scanBatch('token', order()));
    const error = refusedWith(outcome, 'price_above_catalog');
    assert.equal(error.paid, false);
    assert.equal(moved, 0n, 'nothing left the payer');
    assert.equal(client.spentUsd, 0);
  });

  it('the budget and the per-call cap hold a batch at its per-item price, before it pays', async () => {
    proxy.set({ kind: 'none' });
    const overBudget = await paying((c) => c.scanBatch('token', order()), { budgetUsd: 0.5 });
    assert.equal(refusedWith(overBudget.outcome, 'over_budget').paid, false);
    const overCap = await paying((c) => c.scanBatch('token', order()), { maxPerCallUsd: 0.5 });
    assert.equal(refusedWith(overCap.outcome, 'over_call_cap').paid, false);
    assert.deepEqual([overBudget.moved, overCap.moved], [0n, 0n], 'nothing left either payer');
  });

  it('a batch body altered on the way: bad_signature, counted as spent, its receipt kept', async () => {
    proxy.set({ kind: 'body-byte' });
    const { outcome, moved, client } = await paying((c) => c.scanBatch('wallet', [sandbox.payTo]));
    const error = refusedWith(outcome, 'bad_signature');
    assert.equal(error.paid, true, 'money moved before the answer was read');
    assert.match(String(error.details.settlement?.transaction), /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    assert.ok(moved > 0n);
    assert.equal(BigInt(atomicPrice(client.spentUsd)), moved, 'the budget counts it');
  });
});
