/**
 * The GOAT plugin on `risk-scan sandbox`, driven as GOAT drives it: `getTools({ wallet, plugins })`
 * with a real `SolanaKeypairWalletClient` made from the sandbox's funded payer, each scan's tool
 * called through its parameters schema and `execute`, no model. Each pays exactly the catalog's
 * price from that wallet and answers the seeded subject's verified result; a result signed by
 * another key, a 402 naming another payee and a wallet that does not sign raw bytes are refused.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { getTools, type ToolBase } from '@goat-sdk/core';
import { SolanaKeypairWalletClient, solana } from '@goat-sdk/wallet-solana';
import { generateKeyPairSigner } from '@solana/kit';
import { Connection, Keypair } from '@solana/web3.js';
import { type RiskScanAnswer, type RiskScanGoatOptions, riskScan } from '@solana-risk-scan/goat';
import { type ScanKind, usePluginSandbox } from '../helpers/plugin-sandbox.js';

const TOOLS: Record<ScanKind, { tool: string; args: (subject: string) => Record<string, string> }> = {
  token: { tool: 'risk_scan_token', args: (mint) => ({ mint }) },
  pumpfun: { tool: 'risk_scan_pumpfun', args: (mint) => ({ mint }) },
  wallet: { tool: 'risk_scan_wallet', args: (address) => ({ address }) },
  tx: { tool: 'risk_verify_tx', args: (signature) => ({ signature }) },
  program: { tool: 'risk_scan_program', args: (programId) => ({ programId }) },
  simulate: { tool: 'risk_simulate_tx', args: (transaction) => ({ transaction }) },
};

describe('the GOAT plugin pays each scan from the GOAT Solana wallet', { timeout: 300_000 }, () => {
  const env = usePluginSandbox();

  const walletOf = (keypair = Keypair.fromSecretKey(env.payerSecretKey)) =>
    solana({ keypair, connection: new Connection(env.sandbox.rpc.url, 'confirmed') });
  const toolsFor = (wallet: SolanaKeypairWalletClient, options: Partial<RiskScanGoatOptions> = {}) =>
    getTools({
      wallet,
      plugins: [
        riskScan({ apiUrl: env.sandbox.api.url, payTo: env.sandbox.payTo, budgetUsd: 10, ...options }),
      ],
    });
  /** As GOAT's adapters call a tool: the arguments parsed by its parameters schema, then `execute`. */
  const call = (tools: ToolBase[], name: string, args: Record<string, string>) => {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `getTools lists ${name}`);
    return tool.execute(tool.parameters.parse(args)) as Promise<RiskScanAnswer>;
  };

  it('lists one tool per scan, for Solana only', async () => {
    const plugin = riskScan({ apiUrl: env.sandbox.api.url, payTo: env.sandbox.payTo });
    assert.equal(
      plugin.supportsChain({ type: 'solana', nativeCurrency: { name: 'SOL', symbol: 'SOL', decimals: 9 } }),
      true,
    );
    assert.equal(
      plugin.supportsChain({
        type: 'evm',
        id: 1,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      }),
      false,
    );
    const names = (await toolsFor(walletOf())).map((t) => t.name);
    for (const { tool } of Object.values(TOOLS)) assert.ok(names.includes(tool), `${tool} in ${names}`);
  });

  it('rejects arguments that are no Solana subject in the schema, before anything is paid', async () => {
    const tools = await toolsFor(walletOf());
    const token = tools.find((t) => t.name === 'risk_scan_token')!;
    assert.equal(token.parameters.safeParse({ mint: '0xdeadbeef' }).success, false);
  });

  for (const [kind, { tool, args }] of Object.entries(TOOLS) as [ScanKind, (typeof TOOLS)[ScanKind]][]) {
    it(`${tool} pays exactly the ${kind} price from the wallet and answers the verified result`, async () => {
      const wallet = walletOf();
      const tools = await toolsFor(wallet);
      const payer = wallet.getAddress();
      const before = { payer: await env.usdcBalance(payer), payTo: await env.usdcBalance(env.sandbox.payTo) };

      const answer = await call(tools, tool, args(env.subjectOf(kind)));

      const price = env.priceOf(kind);
      assert.equal(await env.usdcBalance(payer), before.payer - price, 'the wallet paid exactly the price');
      assert.equal(await env.usdcBalance(env.sandbox.payTo), before.payTo + price, 'payTo received it');
      assert.equal(answer.paidUsd, Number(price) / 1e6);
      assert.ok(answer.transaction && env.sandbox.chain.transaction(answer.transaction), 'settled on chain');
      assert.ok(answer.result.risk_score >= 0 && answer.result.risk_score <= 1);
      assert.ok(Array.isArray(answer.result.flags) && typeof answer.result.summary === 'string');
      assert.match(answer.result.request_id ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(typeof answer.verdict.allow, 'boolean');
    });
  }

  it("answers the seeded token's flags, and a verdict the default policy blocks", async () => {
    const token = env.riskiestToken();
    const answer = await call(await toolsFor(walletOf()), 'risk_scan_token', { mint: token.address });
    for (const flag of token.expect.flags) assert.ok(answer.result.flags.includes(flag as never), flag);
    assert.ok(answer.result.risk_score >= 0.5, `risk score ${answer.result.risk_score}`);
    assert.equal(answer.verdict.decision, answer.result.evidence?.decision);
    assert.ok(
      ['avoid', 'do_not_interact'].includes(answer.verdict.decision ?? ''),
      `${answer.verdict.decision}`,
    );
    assert.equal(answer.verdict.allow, false, answer.verdict.reasons.join('; '));
  });

  it('refuses a result signed by another key than the pinned one', async () => {
    const otherKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const tools = await toolsFor(walletOf(), { signingKey: otherKey });
    await assert.rejects(call(tools, 'risk_scan_wallet', { address: env.subjectOf('wallet') }), {
      name: 'RiskScanError',
      code: 'bad_signature',
    });
  });

  it('pays nothing when the 402 names another payee than the pinned one', async () => {
    const wallet = walletOf();
    const before = await env.usdcBalance(wallet.getAddress());
    const tools = await toolsFor(wallet, { payTo: (await generateKeyPairSigner()).address });
    await assert.rejects(call(tools, 'risk_scan_wallet', { address: env.subjectOf('wallet') }), {
      code: 'payee_mismatch',
    });
    assert.equal(await env.usdcBalance(wallet.getAddress()), before);
  });

  it('refuses a wallet whose signMessage does not sign the bytes it is given, and pays nothing', async () => {
    /** A wallet client that signs the message's text as UTF-8 (as a chat-signing wallet would). */
    class TextSigningWallet extends SolanaKeypairWalletClient {
      override signMessage(message: string) {
        return super.signMessage(Buffer.from(message).toString('base64'));
      }
    }
    const keypair = Keypair.fromSecretKey(env.payerSecretKey);
    const wallet = new TextSigningWallet({ keypair, connection: new Connection(env.sandbox.rpc.url) });
    const before = await env.usdcBalance(wallet.getAddress());
    await assert.rejects(
      call(await toolsFor(wallet), 'risk_scan_wallet', { address: env.subjectOf('wallet') }),
      /did not sign the payment's bytes/,
    );
    assert.equal(await env.usdcBalance(wallet.getAddress()), before);
  });
});
