/**
 * The scans as the kit's actions (what a model calls: the kit validates the input with `schema`
 * and calls `handler(agent, input)`) and as plugin methods (what code calls:
 * `agent.methods.riskScanToken(agent, mint)`). Both pay through the agent's own client.
 */
import { type Paid, type RiskScanClient, RiskScanError, type ScanResult } from '@solana-risk-scan/client';
import type { Action, SolanaAgentKit } from 'solana-agent-kit';
import { z } from 'zod/v3';
import { descriptionOf, priceOf, SCANS, type ScanSpec } from './scans.js';

/** The client that pays from an agent's wallet. */
export type ClientFor = (agent: SolanaAgentKit) => RiskScanClient;

/** What an action answers: the paid, signature-checked result and its receipt. */
export type ScanActionOutput =
  | ({ status: 'success'; message: string } & Paid<ScanResult>)
  | { status: 'error'; code: string; message: string; paid: boolean };

export function scanActions(clientFor: ClientFor): Action[] {
  return SCANS.map((spec) => ({
    name: spec.action,
    similes: [...spec.similes],
    description: descriptionOf(spec),
    examples: [[exampleOf(spec)]],
    // zod's v3 API, which the kit's actions are written in; cast because the kit's copy of zod is
    // another declaration of the same types, too deep for the compiler to compare.
    schema: z.object({ [spec.field]: spec.input }) as unknown as Action['schema'],
    handler: (agent: SolanaAgentKit, input: Record<string, unknown>) =>
      runScan(spec, clientFor(agent), String(input[spec.field])),
  }));
}

export type ScanMethods = Record<string, (agent: SolanaAgentKit, value: string) => Promise<Paid<ScanResult>>>;

export function scanMethods(clientFor: ClientFor): ScanMethods {
  return Object.fromEntries(
    SCANS.map((spec) => [
      spec.method,
      (agent: SolanaAgentKit, value: string) => spec.call(clientFor(agent), value),
    ]),
  );
}

/** A failure of the client is an answer the model can act on, saying whether money moved. */
async function runScan(spec: ScanSpec, client: RiskScanClient, value: string): Promise<ScanActionOutput> {
  try {
    const paid = await spec.call(client, value);
    return { status: 'success', message: paid.result.summary, ...paid };
  } catch (error) {
    if (!(error instanceof RiskScanError)) throw error;
    return { status: 'error', code: error.code, message: error.message, paid: error.paid };
  }
}

function exampleOf(spec: ScanSpec) {
  return {
    input: { [spec.field]: spec.example },
    output: {
      status: 'success',
      result: { risk_score: 0.05, flags: [], confidence: 1, evidence: { decision: 'proceed' } },
      paidUsd: priceOf(spec),
    },
    explanation: `${spec.what.split(':')[0]}, paid from the agent's wallet.`,
  };
}
