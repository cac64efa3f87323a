/**
 * The session budget of `risk-scan mcp`: calls in flight hold their price, unpaid calls give it
 * back, and a call lost after its payment left keeps it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SessionBudget } from '@solana-risk-scan/client';
import { atomicPrice, GET_ENDPOINTS } from '../../src/catalog.js';
import { generateKeypairWithBytes, writeKeypairFile } from '../../src/client/keypair-file.js';
import { payForTool } from '../../src/mcp/paying-server.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';

describe('SessionBudget', () => {
  it('lets calls in parallel hold no more than the budget, and gives back what was not paid', () => {
    const budget = new SessionBudget(500_000n);
    const first = budget.hold(300_000n, 1);
    assert.deepEqual(first, { held: 300_000n });
    // While the first runs, a second 0.30 call would overspend: refused.
    assert.equal(budget.hold(300_000n, 1), null);
    budget.release(first!, null); // the scan failed: nothing was paid
    const again = budget.hold(300_000n, 1);
    assert.ok(again !== null);
    assert.equal(budget.charge(again, 300_000n), true);
    budget.release(again, 0.3);
    assert.equal(budget.left(), '0.2');
    assert.equal(budget.hold(300_000n, 1), null);
    assert.deepEqual(budget.hold(20_000n, 1), { held: 20_000n });
  });

  it('a live price dearer than the catalog is held when the payment leaves: calls in parallel cannot overspend', () => {
    const budget = new SessionBudget(500_000n);
    // Both fit by the catalog (0.02 each); the API asks 0.30 of each.
    const first = budget.hold(20_000n, 1)!;
    const second = budget.hold(20_000n, 1)!;
    assert.equal(budget.charge(first, 300_000n), true);
    assert.equal(budget.charge(second, 300_000n), false, '0.30 + 0.30 is past the 0.50 budget');
    budget.release(second, null);
    budget.release(first, 0.3);
    assert.equal(budget.left(), '0.2');
  });

  it('leaves a call over the per-call cap to be refused as such, yet bounds its live price by what is left', () => {
    const budget = new SessionBudget(100_000n);
    const over = budget.hold(1_000_000n, 0.5)!;
    assert.deepEqual(over, { held: 0n });
    // The API asks less than the catalog, under the per-call cap: still more than the 0.10 left.
    assert.equal(budget.charge(over, 200_000n), false);
    assert.equal(budget.charge(over, 100_000n), true);
    assert.deepEqual(new SessionBudget(null).hold(1_000_000n, 0.5), { held: 0n });
  });
});

describe('payForTool against the paid sandbox', () => {
  it('a paid call whose answer is lost after its payment left counts as spent: the budget does not pay again', async () => {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    // The scan waits until the test ends it: the paid answer outlasts the 1 s timeout.
    const s = await startPaidSandbox(
      {},
      {
        mode: selling(
          probeScanners(async (subject, ctx) => {
            await released;
            return probeScanner(subject, ctx);
          }),
        ),
      },
    );
    const dir = await mkdtemp(join(tmpdir(), 'paying-budget-'));
    try {
      const keypair = await generateKeypairWithBytes();
      await writeKeypairFile(join(dir, 'payer.json'), keypair);
      await fundUsdc(s.chain, s.usdcAuthority, [{ owner: keypair.signer.address, amount: 1_000_000n }]);
      const wallet = GET_ENDPOINTS.find((e) => e.id === 'wallet')!;
      const options = {
        api: s.url,
        rpc: s.rpcServer.url,
        keypair: join(dir, 'payer.json'),
        maxUsd: 1,
        budgetUsd: wallet.price.usd,
        sandboxDir: join(dir, 'none'),
        timeoutS: 1,
      };
      const budget = new SessionBudget(BigInt(atomicPrice(wallet.price.usd)));
      const lost = await payForTool(options, budget, wallet, { address: keypair.signer.address });
      assert.equal(lost.isError, true);
      assert.match(JSON.stringify(lost.structuredContent), /the payment may still settle/);
      assert.equal(budget.left(), '0', 'the lost call is counted as spent');
      const again = await payForTool(options, budget, wallet, { address: s.payer.address });
      assert.match(JSON.stringify(again.structuredContent), /budget_spent/);
    } finally {
      release();
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a call the catalog prices over --max-usd, whose live price is under it, pays no more than is left of --budget-usd', async () => {
    const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const dir = await mkdtemp(join(tmpdir(), 'paying-budget-'));
    try {
      const keypair = await generateKeypairWithBytes();
      const payer = keypair.signer.address;
      await writeKeypairFile(join(dir, 'payer.json'), keypair);
      await fundUsdc(s.chain, s.usdcAuthority, [{ owner: payer, amount: 1_000_000n }]);
      const wallet = GET_ENDPOINTS.find((e) => e.id === 'wallet')!;
      // This build's catalog says 1 USDC; the API asks its own 0.02.
      const stale = { ...wallet, priceUsd: 1 };
      const options = {
        api: s.url,
        rpc: s.rpcServer.url,
        keypair: join(dir, 'payer.json'),
        maxUsd: 0.5,
        budgetUsd: 0.01,
        sandboxDir: join(dir, 'none'),
        timeoutS: 10,
      };
      const budget = new SessionBudget(10_000n);
      const refused = await payForTool(options, budget, stale, { address: payer });
      assert.equal(refused.isError, true);
      const body = refused.structuredContent as { error: string; message: string };
      assert.equal(body.error, 'budget_spent');
      assert.match(
        body.message,
        /costs 0\.02 USDC and this session has 0\.01 USDC left of --budget-usd; nothing was paid/,
      );
      assert.equal(await s.usdcBalance(payer), 1_000_000n, 'nothing was paid');
      assert.equal(budget.left(), '0.01');

      // With enough left, the live price is paid and counted.
      const roomy = new SessionBudget(100_000n);
      const paid = await payForTool(options, roomy, stale, { address: payer });
      assert.notEqual(paid.isError, true, JSON.stringify(paid.structuredContent));
      assert.equal(await s.usdcBalance(payer), 1_000_000n - 20_000n);
      assert.equal(roomy.left(), '0.08');
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--pay-to pins the payee: a 402 naming another is refused, nothing paid, the budget untouched', async () => {
    const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const dir = await mkdtemp(join(tmpdir(), 'paying-pinned-'));
    try {
      const keypair = await generateKeypairWithBytes();
      const payer = keypair.signer.address;
      await writeKeypairFile(join(dir, 'payer.json'), keypair);
      await fundUsdc(s.chain, s.usdcAuthority, [{ owner: payer, amount: 1_000_000n }]);
      const wallet = GET_ENDPOINTS.find((e) => e.id === 'wallet')!;
      const options = {
        api: s.url,
        rpc: s.rpcServer.url,
        keypair: join(dir, 'payer.json'),
        payTo: 'So11111111111111111111111111111111111111112',
        maxUsd: 1,
        budgetUsd: 0.1,
        sandboxDir: join(dir, 'none'),
        timeoutS: 10,
      };
      const budget = new SessionBudget(100_000n);
      const refused = await payForTool(options, budget, wallet, { address: payer });
      assert.equal(refused.isError, true);
      const body = refused.structuredContent as { error: string; message: string };
      assert.match(body.message, new RegExp(`names the payee ${s.payTo}, and this client pays only So1`));
      assert.equal(await s.usdcBalance(payer), 1_000_000n, 'nothing was paid');
      assert.equal(budget.left(), '0.1');
      const right = await payForTool({ ...options, payTo: s.payTo }, budget, wallet, { address: payer });
      assert.notEqual(right.isError, true, JSON.stringify(right.structuredContent));
      assert.equal(await s.usdcBalance(payer), 1_000_000n - 20_000n);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
