/**
 * The solana-agent-kit plugin on the sandbox, through the kit itself: a SolanaAgentKit whose
 * wallet is a KeypairWallet of the sandbox payer, the plugin added with `.use`, and each action
 * run as the kit runs it (`executeAction`: the action's zod schema parses the input, then its
 * handler). Every scan is paid from the agent's wallet with exactly the catalog's price, and its
 * result's signature was checked by the client (a result signed by another key is refused).
 * The guarded TRADE refuses a swap into a seeded high-risk token, with the reasons and before any
 * swap, and hands a low-risk one to the kit's real trade, which here reaches for Jupiter's API.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import RiskScanPlugin, { createRiskScanPlugin, TradeRefusedError } from '@solana-risk-scan/solana-agent-kit';
import { type Action, executeAction, KeypairWallet, type Plugin, SolanaAgentKit } from 'solana-agent-kit';
import type { ScanId } from '../../src/catalog.js';
import { priceUnits, usePluginSandbox } from '../helpers/plugin-sandbox.js';

// plugin-token 2.0.9's ES module build cannot be imported on Node 20 (a pump.fun dependency takes
// `BN` as a named export of CommonJS anchor); its CommonJS build is the same plugin.
const TokenPlugin = createRequire(import.meta.url)('@solana-agent-kit/plugin-token').default as Plugin;

const LOW_RISK = 'token:clean'; // risk 0.1: proceed
const AVOID = 'token:pool-lp-creator'; // risk 0.6, LP_PULLABLE: avoid
const DO_NOT_INTERACT = 'token:authorities-live'; // live mint and freeze authorities: do_not_interact

describe('solana-agent-kit plugin: paid actions from the agent wallet, and the trade guard', () => {
  const sandbox = usePluginSandbox();
  const agentWith = (options: Parameters<typeof createRiskScanPlugin>[0] = {}) => {
    const wallet = new KeypairWallet(Keypair.fromSecretKey(sandbox.payerSecretKey), sandbox.rpcUrl);
    const plugin = createRiskScanPlugin({ apiUrl: sandbox.apiUrl, payTo: sandbox.payTo, ...options });
    const agent = new SolanaAgentKit(wallet, sandbox.rpcUrl, {}).use(plugin.guard(TokenPlugin)).use(plugin);
    return { agent, plugin };
  };
  const actionOf = (agent: SolanaAgentKit, name: string): Action => {
    const action = agent.actions.find((a) => a.name === name);
    assert.ok(action, `the agent has the ${name} action`);
    return action;
  };
  /** Runs the action as the kit does; returns its output and what the payer and payee moved. */
  const run = async (agent: SolanaAgentKit, name: string, input: Record<string, unknown>) => {
    const [payer, payee] = [
      await sandbox.usdcBalance(sandbox.payer),
      await sandbox.usdcBalance(sandbox.payTo),
    ];
    const out: any = await executeAction(actionOf(agent, name), agent, input);
    return {
      out,
      paid: payer - (await sandbox.usdcBalance(sandbox.payer)),
      received: (await sandbox.usdcBalance(sandbox.payTo)) - payee,
    };
  };

  const cases: [string, ScanId, () => Record<string, string>][] = [
    ['RISK_SCAN_TOKEN', 'token', () => ({ mint: sandbox.subject(LOW_RISK) })],
    ['RISK_SCAN_PUMPFUN', 'pumpfun', () => ({ mint: sandbox.subject('pumpfun:curve-active') })],
    ['RISK_SCAN_WALLET', 'wallet', () => ({ address: sandbox.subject('wallet:old-active') })],
    ['RISK_VERIFY_TX', 'tx', () => ({ signature: sandbox.subject('tx:success') })],
    ['RISK_SCAN_PROGRAM', 'program', () => ({ programId: sandbox.subject('program:immutable') })],
    ['RISK_SIMULATE_TX', 'simulate', () => ({ transaction: sandbox.simulations()[0]!.transaction })],
  ];
  for (const [name, id, input] of cases) {
    it(`${name} pays exactly the ${id} price from the agent's wallet and returns the signed ScanResult`, async () => {
      const { agent, plugin } = agentWith();
      const { out, paid, received } = await run(agent, name, input());
      assert.equal(out.status, 'success', JSON.stringify(out));
      assert.ok(out.result.risk_score >= 0 && out.result.risk_score <= 1);
      assert.ok(Array.isArray(out.result.flags) && typeof out.result.summary === 'string');
      assert.match(out.result.request_id, /^[0-9a-f-]{36}$/);
      assert.equal(paid, priceUnits(id), 'the payer paid exactly the price');
      assert.equal(received, priceUnits(id), 'the pinned payee received it');
      assert.equal(BigInt(Math.round(out.paidUsd * 1e6)), priceUnits(id));
      assert.equal(plugin.clientFor(agent).spentUsd, out.paidUsd, "the agent's budget counts it");
    });
  }

  it('a result signed by another key than the pinned one is refused, not returned', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const { agent } = agentWith({
      signingKey: { ...publicKey.export({ format: 'jwk' }), kid: 'other' } as any,
    });
    const { out } = await run(agent, 'RISK_SCAN_WALLET', { address: sandbox.subject('wallet:burner') });
    assert.equal(out.status, 'error');
    assert.equal(out.code, 'bad_signature', out.message);
    assert.equal(out.result, undefined);
  });

  it('the schema refuses an input that is no address before anything is paid', async () => {
    const { agent } = agentWith();
    const { out, paid } = await run(agent, 'RISK_SCAN_TOKEN', { mint: 'not-a-mint' });
    assert.equal(out.code, 'VALIDATION_ERROR');
    assert.equal(paid, 0n);
  });

  it("a pinned payee that is not the 402's refuses to pay: nothing moves", async () => {
    const other = Keypair.generate().publicKey.toBase58();
    const { agent } = agentWith({ payTo: other });
    const { out, paid } = await run(agent, 'RISK_SCAN_WALLET', { address: sandbox.subject('wallet:burner') });
    assert.equal(out.status, 'error');
    assert.equal(out.code, 'payee_mismatch', out.message);
    assert.equal(out.paid, false);
    assert.equal(paid, 0n);
  });

  it('the budget and the per-call cap stop a call before paying', async () => {
    const budget = await run(agentWith({ budgetUsd: 0.25 }).agent, 'RISK_SCAN_TOKEN', {
      mint: sandbox.subject(LOW_RISK),
    });
    assert.equal(budget.out.code, 'over_budget', budget.out.message);
    const cap = await run(agentWith({ maxPerCallUsd: 0.5 }).agent, 'RISK_SCAN_PROGRAM', {
      programId: sandbox.subject('program:immutable'),
    });
    assert.equal(cap.out.code, 'over_call_cap', cap.out.message);
    assert.equal(budget.paid + cap.paid, 0n);
  });

  it("the default export reads the API URL and pinned payee from the kit's config", async () => {
    const wallet = new KeypairWallet(Keypair.fromSecretKey(sandbox.payerSecretKey), sandbox.rpcUrl);
    assert.throws(
      () => new SolanaAgentKit(wallet, sandbox.rpcUrl, {}).use(RiskScanPlugin),
      /RISK_SCAN_PAY_TO/,
    );
    const config = { OTHER_API_KEYS: { RISK_SCAN_API_URL: sandbox.apiUrl, RISK_SCAN_PAY_TO: sandbox.payTo } };
    const agent = new SolanaAgentKit(wallet, sandbox.rpcUrl, config).use(RiskScanPlugin);
    const { out, paid } = await run(agent, 'RISK_SCAN_WALLET', {
      address: sandbox.subject('wallet:high-failure'),
    });
    assert.equal(out.status, 'success', JSON.stringify(out));
    assert.equal(paid, priceUnits('wallet'));
  });

  describe('the guarded trade', () => {
    // Jupiter's API is not on this machine: its requests are recorded and fail as an unreachable host.
    const jupiter: string[] = [];
    const realFetch = globalThis.fetch;
    before(() => {
      globalThis.fetch = async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (!new URL(url).hostname.endsWith('jup.ag')) return realFetch(input, init);
        jupiter.push(url);
        throw new TypeError(
          'fetch failed: getaddrinfo ENOTFOUND (Jupiter is not reachable from the sandbox)',
        );
      };
    });
    after(() => {
      globalThis.fetch = realFetch;
    });

    for (const [name, decision] of [
      [AVOID, 'avoid'],
      [DO_NOT_INTERACT, 'do_not_interact'],
    ] as const) {
      it(`TRADE refuses a swap into ${name} (${decision}), with the reasons, and swaps nothing`, async () => {
        const { agent } = agentWith();
        jupiter.length = 0;
        const { out, paid } = await run(agent, 'TRADE', {
          outputMint: sandbox.subject(name),
          inputAmount: 0.01,
        });
        assert.equal(out.status, 'error');
        assert.equal(out.code, 'TRADE_REFUSED', out.message);
        assert.equal(out.decision, decision);
        assert.ok(
          out.reasons.some((r: string) => r.includes(decision)),
          out.reasons.join('; '),
        );
        assert.match(out.message, new RegExp(`refused.*${decision}`));
        assert.ok(out.scan.flags.length > 0 && out.message.includes(out.scan.flags[0]));
        assert.deepEqual(jupiter, [], 'no swap was attempted');
        assert.equal(paid, priceUnits('token'), 'only the token scan was paid');
      });
    }

    it("TRADE lets a low-risk token through to the kit's real trade", async () => {
      const { agent } = agentWith();
      jupiter.length = 0;
      const mint = sandbox.subject(LOW_RISK);
      const { out, paid } = await run(agent, 'TRADE', { outputMint: mint, inputAmount: 0.01 });
      assert.equal(jupiter.length, 1, 'the real trade asked Jupiter for a quote');
      assert.equal(new URL(jupiter[0]!).searchParams.get('outputMint'), mint);
      // The kit's trade ran and failed on the unreachable Jupiter, as it reports such failures.
      assert.equal(out.status, 'error');
      assert.match(out.message, /^Swap failed: fetch failed/);
      assert.equal(paid, priceUnits('token'));
    });

    it("the guard's scans spend from the agent's one budget, with its actions'", async () => {
      const { agent, plugin } = agentWith({ budgetUsd: 0.5 });
      await run(agent, 'TRADE', { outputMint: sandbox.subject(AVOID), inputAmount: 0.01 });
      assert.equal(plugin.clientFor(agent).spentUsd, 0.3);
      const { out, paid } = await run(agent, 'RISK_SCAN_TOKEN', { mint: sandbox.subject(LOW_RISK) });
      assert.equal(out.code, 'over_budget', out.message);
      assert.equal(paid, 0n);
    });

    it('the trade method throws a TradeRefusedError instead of swapping into a risky token', async () => {
      const { agent } = agentWith();
      jupiter.length = 0;
      const methods = agent.methods as any;
      await assert.rejects(methods.trade(agent, new PublicKey(sandbox.subject(AVOID)), 0.01), (error) => {
        assert.ok(error instanceof TradeRefusedError);
        assert.equal(error.judgement.verdict.decision, 'avoid');
        return true;
      });
      await assert.rejects(
        methods.trade(agent, new PublicKey(sandbox.subject(LOW_RISK)), 0.01),
        /Swap failed/,
      );
      assert.equal(jupiter.length, 1, 'only the low-risk trade reached Jupiter');
    });
  });
});
