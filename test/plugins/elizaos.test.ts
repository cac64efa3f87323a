/**
 * The elizaOS plugin on `risk-scan sandbox`, run by elizaOS's own AgentRuntime (no database, no
 * model: the plugin registered through `registerPlugin`, which runs its `init`), each action
 * called as the runtime calls it (`validate`, then `handler(runtime, message, state, options,
 * callback)`) and the provider through `composeState`. The payer is the sandbox's, given as the
 * Solana plugin's SOLANA_PRIVATE_KEY. Each scan pays exactly the catalog's price; the provider
 * shows the latest verdict on a token; the budget and the pinned payee come from the settings.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createKeyPairSignerFromBytes, generateKeyPairSigner, getBase58Decoder } from '@solana/kit';
import {
  type Action,
  type AgentRuntime,
  type Plugin,
  type Provider,
  RISK_VERDICT_PROVIDER,
  riskScanPlugin,
} from '@solana-risk-scan/elizaos';
import { type ScanKind, usePluginSandbox } from '../helpers/plugin-sandbox.js';

/** The runtime's members this test uses (elizaOS's .d.ts files cannot be read under NodeNext). */
interface ElizaRuntime extends AgentRuntime {
  readonly actions: Action[];
  readonly providers: Provider[];
  registerPlugin(plugin: Plugin): Promise<void>;
  composeState(
    message: object,
    include: string[],
    onlyInclude: boolean,
    skipCache: boolean,
  ): Promise<{ text: string; values: Record<string, unknown> }>;
}
type RuntimeClass = new (options: { character: object }) => ElizaRuntime;

const ACTIONS: Record<ScanKind, string> = {
  token: 'RISK_SCAN_TOKEN',
  pumpfun: 'RISK_SCAN_PUMPFUN',
  wallet: 'RISK_SCAN_WALLET',
  tx: 'RISK_VERIFY_TX',
  program: 'RISK_SCAN_PROGRAM',
  simulate: 'RISK_SIMULATE_TX',
};

describe('the elizaOS plugin pays each scan from the Solana key in the settings', {
  timeout: 300_000,
}, () => {
  const env = usePluginSandbox();
  const roomId = randomUUID();

  async function runtimeWith(settings: Record<string, string> = {}): Promise<ElizaRuntime> {
    const { AgentRuntime } = (await import('@elizaos/core')) as unknown as { AgentRuntime: RuntimeClass };
    const runtime = new AgentRuntime({
      character: {
        name: 'Scout',
        bio: 'Checks a Solana token before trading it.',
        secrets: { SOLANA_PRIVATE_KEY: getBase58Decoder().decode(env.payerSecretKey) },
        settings: {
          RISK_SCAN_API_URL: env.sandbox.api.url,
          RISK_SCAN_PAY_TO: env.sandbox.payTo,
          RISK_SCAN_BUDGET_USD: '10',
          SOLANA_RPC_URL: env.sandbox.rpc.url,
          ...settings,
        },
      },
    });
    await runtime.registerPlugin(riskScanPlugin);
    return runtime;
  }
  const messageOf = (text: string) => ({
    id: randomUUID(),
    entityId: randomUUID(),
    roomId,
    content: { text, source: 'test' },
  });
  const payer = async () => (await createKeyPairSignerFromBytes(env.payerSecretKey)).address;

  /** As the runtime runs an action the model picked: validate, then the handler with a callback. */
  async function run(runtime: ElizaRuntime, name: string, text: string) {
    const action = runtime.actions.find((a) => a.name === name);
    assert.ok(action, `the runtime has ${name}`);
    const message = messageOf(text);
    assert.equal(await action.validate(runtime, message), true, `${name} validates "${text.slice(0, 60)}"`);
    const state = await runtime.composeState(message, [RISK_VERDICT_PROVIDER], true, true);
    const replies: { text?: string }[] = [];
    const result = await action.handler(runtime, message, state, {}, async (reply) => {
      replies.push(reply);
      return [];
    });
    return { result, replies };
  }

  for (const [kind, name] of Object.entries(ACTIONS) as [ScanKind, string][]) {
    it(`${name} pays exactly the ${kind} price and answers the verified result`, async () => {
      const runtime = await runtimeWith();
      const before = {
        payer: await env.usdcBalance(await payer()),
        payTo: await env.usdcBalance(env.sandbox.payTo),
      };

      const { result, replies } = await run(runtime, name, `Please check this: ${env.subjectOf(kind)}`);

      const price = env.priceOf(kind);
      assert.equal(result.success, true, result.text);
      assert.equal(
        await env.usdcBalance(await payer()),
        before.payer - price,
        'the payer paid exactly the price',
      );
      assert.equal(await env.usdcBalance(env.sandbox.payTo), before.payTo + price, 'payTo received it');
      const data = result.data as { result: { risk_score: number; request_id: string }; paidUsd: number };
      assert.equal(data.paidUsd, Number(price) / 1e6);
      assert.match(data.result.request_id, /^[0-9a-f-]{36}$/);
      assert.ok(data.result.risk_score >= 0 && data.result.risk_score <= 1);
      assert.equal(replies.length, 1);
      assert.match(replies[0]!.text ?? '', new RegExp(`Paid ${(Number(price) / 1e6).toFixed(2)} USDC`));
    });
  }

  it('puts the latest verdict on a token into the context, and the one on the token a message names', async () => {
    const runtime = await runtimeWith();
    const verdictIn = async (text: string) =>
      runtime.composeState(messageOf(text), [RISK_VERDICT_PROVIDER], true, true);
    assert.equal((await verdictIn('anything scanned yet?')).text, '', 'nothing before a scan');

    const token = env.riskiestToken();
    const scanned = await run(runtime, 'RISK_SCAN_TOKEN', `is ${token.address} safe to buy?`);
    const verdict = (scanned.result.data as { verdict: { decision: string | null; allow: boolean } }).verdict;
    assert.ok(verdict.decision !== null, 'the result carries its decision');
    const afterToken = await verdictIn('should I buy it?');
    assert.match(afterToken.text, new RegExp(`token ${token.address}`));
    const gateWord = verdict.allow ? '\\(allowed\\)' : '\\(blocked: ';
    assert.match(afterToken.text, new RegExp(`: ${verdict.decision} ${gateWord}`));
    assert.equal(afterToken.values.riskScanToken, token.address);
    assert.equal(afterToken.values.riskScanAllow, verdict.allow);

    const pumpfun = env.subjectOf('pumpfun');
    await run(runtime, 'RISK_SCAN_PUMPFUN', `and ${pumpfun}?`);
    assert.equal((await verdictIn('and now?')).values.riskScanToken, pumpfun, 'the latest scan');
    assert.equal((await verdictIn(`back to ${token.address}`)).values.riskScanToken, token.address);
  });

  it('validates only a message that names a subject', async () => {
    const runtime = await runtimeWith();
    const action = runtime.actions.find((a) => a.name === 'RISK_SCAN_TOKEN')!;
    assert.equal(await action.validate(runtime, messageOf('is this token safe?')), false);
    assert.equal(await action.validate(runtime, messageOf(`tx ${env.subjectOf('tx')}`)), false);
  });

  it('stops at the budget from RISK_SCAN_BUDGET_USD, with nothing paid', async () => {
    const runtime = await runtimeWith({ RISK_SCAN_BUDGET_USD: '0.25' });
    const before = await env.usdcBalance(await payer());
    const { result, replies } = await run(runtime, 'RISK_SCAN_TOKEN', `check ${env.subjectOf('token')}`);
    assert.equal(result.success, false);
    assert.match(replies[0]!.text ?? '', /over_budget.*No payment was sent\./);
    assert.equal(await env.usdcBalance(await payer()), before);
  });

  it('refuses a 402 naming another payee than RISK_SCAN_PAY_TO, with nothing paid', async () => {
    const other = (await generateKeyPairSigner()).address;
    const runtime = await runtimeWith({ RISK_SCAN_PAY_TO: other });
    const before = await env.usdcBalance(await payer());
    const { result, replies } = await run(runtime, 'RISK_SCAN_WALLET', `check ${env.subjectOf('wallet')}`);
    assert.equal(result.success, false);
    assert.match(replies[0]!.text ?? '', /payee_mismatch/);
    assert.equal(await env.usdcBalance(await payer()), before);
  });

  it('does not start without its pinned payee', async () => {
    await assert.rejects(runtimeWith({ RISK_SCAN_PAY_TO: '' }), /RISK_SCAN_PAY_TO is missing/);
  });
});
