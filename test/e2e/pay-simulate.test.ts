/**
 * POST /simulate/tx paid end to end in the sandbox, with the official @x402/fetch client (it
 * pays a POST and sends the body again), under the `ideal` and `indexed-provider` RPC
 * profiles: the plain USDC transfer reports exactly the amounts that move, each drain raises
 * its flags, the same transfer as a v0 transaction through a lookup table moves the same amounts, a payment buys the simulation of one transaction (the same body again gets the
 * stored response, another body `payment_used`), and a malformed body is a 400 that costs nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import type { SimulationScenario } from '../../src/sandbox/scenarios/manifest.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import {
  type PaidSandbox,
  simulationsOn,
  startPaidSandbox,
  startProfiledInstances,
} from '../helpers/paid-sandbox.js';
import { encodeHeader, v2Payment } from '../helpers/payments.js';
import { jsonOf } from '../helpers/service.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const PRICE = 50_000n;

describe('paying POST /simulate/tx', { timeout: 180_000 }, () => {
  let sandbox: PaidSandbox;
  let profiled: Awaited<ReturnType<typeof startProfiledInstances>>;
  let simulations: SimulationScenario[];
  let urls: ReadonlyMap<RpcProfileName, string>;

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    simulations = await simulationsOn(sandbox);
    profiled = await startProfiledInstances(sandbox);
    urls = profiled.urls;
  });
  after(async () => {
    await sandbox?.close();
    await profiled?.close();
  });

  const named = (name: string) => simulations.find((s) => s.name === name)!;
  const bodyOf = (s: SimulationScenario) => JSON.stringify({ transaction: s.transaction });
  const officialFetch = () =>
    wrapFetchWithPayment(
      fetch,
      new x402Client().register(CAIP2, new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url })),
    );
  const postTo = (
    base: string,
    body: string,
    init: { fetch?: typeof fetch; headers?: Record<string, string> } = {},
  ) =>
    (init.fetch ?? fetch)(`${base}/simulate/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...init.headers },
      body,
    });

  const byChange = (a: { change: string }, b: { change: string }) => a.change.localeCompare(b.change);
  /** The answer's token changes by owner and mint, in the manifest's terms. */
  const tokenChanges = (body: any): { owner: string; mint: string; change: string }[] =>
    body.evidence.token_changes
      .map((t: any) => ({ owner: t.owner, mint: t.mint, change: t.change }))
      .sort(byChange);

  it('the manifest simulations include a v0 transaction that loads accounts from a lookup table', async () => {
    const v0 = named('sim:v0-lookup-table');
    const message = getCompiledTransactionMessageDecoder().decode(
      getTransactionDecoder().decode(getBase64Encoder().encode(v0.transaction)).messageBytes,
    );
    assert.equal(message.version, 0);
    const lookups = 'addressTableLookups' in message ? (message.addressTableLookups ?? []) : [];
    assert.equal(lookups.length, 1);
    const table = await sandbox.rpc
      .getAccountInfo(lookups[0]!.lookupTableAddress, { encoding: 'base64' })
      .send();
    assert.equal(table.value?.owner, 'AddressLookupTab1e1111111111111111111111111');
    // The recipient's USDC account (writable) and the mint (readonly) come from the table.
    assert.equal(lookups[0]!.writableIndexes.length + lookups[0]!.readonlyIndexes.length, 2);
  });

  for (const profile of ['ideal', 'indexed-provider'] as const) {
    it(`${profile}: the official client pays; a plain USDC transfer reports exactly the amounts that move`, async () => {
      const s = named('sim:usdc-transfer');
      const before = await sandbox.balances();
      const res = await postTo(urls.get(profile)!, bodyOf(s), { fetch: officialFetch() });
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      assert.equal(receipt.success, true);
      assert.deepEqual(body.flags, []);
      assert.deepEqual(tokenChanges(body), [...s.expect.tokenChanges!].sort(byChange));
      assert.deepEqual(await sandbox.balances(), {
        payer: before.payer - PRICE,
        payTo: before.payTo + PRICE,
      });
    });

    it(`${profile}: each manifest simulation raises exactly its flags and moves exactly its token amounts`, async () => {
      const payFetch = officialFetch();
      for (const s of simulations.filter((x) => x.name !== 'sim:usdc-transfer')) {
        const res = await postTo(urls.get(profile)!, bodyOf(s), { fetch: payFetch });
        const body = await jsonOf(res);
        assert.equal(res.status, 200, `${s.name}: ${JSON.stringify(body)}`);
        assert.deepEqual(body.flags, s.expect.flags, s.name);
        if (s.expect.tokenChanges !== undefined) {
          assert.deepEqual(tokenChanges(body), [...s.expect.tokenChanges].sort(byChange), s.name);
        }
      }
    });
  }

  /** A v2 payment for /simulate/tx, built as @x402/fetch builds it, kept to present again. */
  async function payment(): Promise<string> {
    const offer = await postTo(sandbox.url, bodyOf(named('sim:usdc-transfer')));
    assert.equal(offer.status, 402);
    const required = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
    const requirements = required.accepts[0] as PaymentRequirements;
    return encodeHeader(
      await v2Payment(sandbox.payer, sandbox.rpcServer.url, requirements, required.resource.url),
    );
  }

  it('one payment buys one transaction: the same body gets the stored response, another body payment_used', async () => {
    const header = await payment();
    const before = await sandbox.balances();
    const paid = { headers: { 'PAYMENT-SIGNATURE': header } };
    const first = await postTo(sandbox.url, bodyOf(named('sim:approve-drain')), paid);
    const firstBody = await first.text();
    assert.equal(first.status, 200, firstBody);
    // The same transaction, written as other JSON: the same purchase.
    const spaced = `{ "transaction" : ${JSON.stringify(named('sim:approve-drain').transaction)} }`;
    const again = await postTo(sandbox.url, spaced, paid);
    assert.equal(again.status, 200);
    assert.equal(await again.text(), firstBody, 'its own result, as stored');
    const other = await postTo(sandbox.url, bodyOf(named('sim:owner-change')), paid);
    assert.equal(other.status, 402);
    const refusal = await jsonOf(other);
    assert.match(
      refusal.error,
      /payment_used: this payment already paid for \/simulate\/tx \(transaction sha256 [0-9a-f]{64}\)/,
    );
    assert.equal(refusal.accepts[0].resource, `${sandbox.url}/simulate/tx`);
    assert.deepEqual(await sandbox.balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
  });

  it('malformed bodies are 400 with the reason and the payer is not charged', async () => {
    const header = await payment();
    const before = await sandbox.balances();
    const paid = { headers: { 'PAYMENT-SIGNATURE': header } };
    for (const [body, reason] of [
      ['{"transaction": "%%%"}', /not base64/],
      [JSON.stringify({ transaction: Buffer.alloc(1300, 1).toString('base64') }), /at most 1232 bytes/],
      [JSON.stringify({ transaction: Buffer.alloc(64, 1).toString('base64') }), /not a transaction/],
      ['not json', /must be JSON/],
    ] as const) {
      const res = await postTo(sandbox.url, body, paid);
      assert.equal(res.status, 400);
      assert.match((await jsonOf(res)).message, reason);
    }
    assert.deepEqual(await sandbox.balances(), before, 'nothing was charged');
    // The payment was never touched: it still buys a simulation.
    const res = await postTo(sandbox.url, bodyOf(named('sim:usdc-transfer')), paid);
    assert.equal(res.status, 200);
  });
});
