/**
 * The AI SDK tools on the sandbox, through the SDK's own tool-calling loop: `generateText` with a
 * mock language model (from `ai/test`) that asks for one tool call, then stops. The SDK validates
 * the call's input against the tool's inputSchema and runs its execute, which pays from the
 * sandbox payer exactly the catalog's price and returns the ScanResult whose signature the
 * client checked. No language model is involved.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { riskScanTools } from '@solana-risk-scan/ai-sdk';
import { signerFromSecretKey } from '@solana-risk-scan/client';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { ScanId } from '../../src/catalog.js';
import { priceUnits, usePluginSandbox } from '../helpers/plugin-sandbox.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `toolName` with `input` once, then answers in text. */
function modelCalling(toolName: string, input: unknown) {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

describe('AI SDK tools: each scan paid through the SDK tool-calling loop', () => {
  const sandbox = usePluginSandbox();
  const toolsWith = async (options: { budgetUsd?: number; payTo?: string; signingKey?: any } = {}) =>
    riskScanTools({
      apiUrl: sandbox.apiUrl,
      rpcUrl: sandbox.rpcUrl,
      signer: await signerFromSecretKey(sandbox.payerSecretKey),
      payTo: sandbox.payTo,
      ...options,
    });
  /** One generateText run calling one tool; its first step's tool outputs and the USDC moved. */
  const call = async (tools: Awaited<ReturnType<typeof toolsWith>>, toolName: string, input: unknown) => {
    const [payer, payee] = [
      await sandbox.usdcBalance(sandbox.payer),
      await sandbox.usdcBalance(sandbox.payTo),
    ];
    const run = await generateText({
      model: modelCalling(toolName, input),
      tools,
      prompt: 'Is this safe?',
      stopWhen: stepCountIs(2),
    });
    const step = run.steps[0]!;
    return {
      results: step.toolResults as any[],
      errors: step.content.filter((part) => part.type === 'tool-error') as any[],
      paid: payer - (await sandbox.usdcBalance(sandbox.payer)),
      received: (await sandbox.usdcBalance(sandbox.payTo)) - payee,
    };
  };

  const cases: [string, ScanId, () => Record<string, string>][] = [
    ['scan_token', 'token', () => ({ mint: sandbox.subject('token:clean') })],
    ['scan_pumpfun', 'pumpfun', () => ({ mint: sandbox.subject('pumpfun:curve-active') })],
    ['scan_wallet', 'wallet', () => ({ address: sandbox.subject('wallet:old-active') })],
    ['verify_tx', 'tx', () => ({ signature: sandbox.subject('tx:success') })],
    ['scan_program', 'program', () => ({ id: sandbox.subject('program:immutable') })],
    ['simulate_tx', 'simulate', () => ({ transaction: sandbox.simulations()[0]!.transaction })],
  ];
  for (const [toolName, id, input] of cases) {
    it(`${toolName}: the SDK runs the tool, which pays exactly the ${id} price and returns the signed result`, async () => {
      const { results, errors, paid, received } = await call(await toolsWith(), toolName, input());
      assert.deepEqual(errors, []);
      assert.equal(results.length, 1);
      const { output } = results[0];
      assert.ok(output.result.risk_score >= 0 && output.result.risk_score <= 1);
      assert.ok(['proceed', 'caution', 'avoid', 'do_not_interact'].includes(output.result.evidence.decision));
      assert.match(output.result.request_id, /^[0-9a-f-]{36}$/);
      assert.equal(paid, priceUnits(id), 'the payer paid exactly the price');
      assert.equal(received, priceUnits(id), 'the pinned payee received it');
      assert.equal(BigInt(Math.round(output.paidUsd * 1e6)), priceUnits(id));
    });
  }

  it('an input the schema refuses never reaches execute: a tool error, nothing paid', async () => {
    const { results, errors, paid } = await call(await toolsWith(), 'scan_token', { mint: 'not-a-mint' });
    assert.equal(results.length, 0);
    assert.equal(errors.length, 1);
    assert.match(String(errors[0].error), /base58/);
    assert.equal(paid, 0n);
  });

  it('the budget and the pinned payee stop a call before paying, as a tool error naming why', async () => {
    const overBudget = await call(await toolsWith({ budgetUsd: 0.25 }), 'scan_token', {
      mint: sandbox.subject('token:clean'),
    });
    assert.equal(overBudget.errors[0]?.error.code, 'over_budget');
    const otherPayee = await call(await toolsWith({ payTo: sandbox.payer }), 'scan_wallet', {
      address: sandbox.subject('wallet:burner'),
    });
    assert.equal(otherPayee.errors[0]?.error.code, 'payee_mismatch');
    assert.equal(overBudget.paid + otherPayee.paid, 0n);
  });

  it('a result signed by another key than the pinned one is a tool error, never a result', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const tools = await toolsWith({ signingKey: { ...publicKey.export({ format: 'jwk' }), kid: 'other' } });
    const { results, errors } = await call(tools, 'scan_wallet', {
      address: sandbox.subject('wallet:burner'),
    });
    assert.equal(results.length, 0);
    assert.equal(errors[0]?.error.code, 'bad_signature');
  });
});
