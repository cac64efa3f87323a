/** How a verdict and a failure read in the agent's replies and context. */
import { type GateVerdict, RiskScanError, type ScanResult } from '@solana-risk-scan/client';

/** One paragraph: what was scanned, the decision and whether the policy allows it, the facts behind it. */
export function verdictText(what: string, result: ScanResult, verdict: GateVerdict): string {
  const decision = verdict.decision ?? 'no decision';
  const gateLine = verdict.allow ? 'allowed' : `blocked: ${verdict.reasons.join('; ')}`;
  const flags = result.flags.length > 0 ? result.flags.join(', ') : 'none';
  return [
    `Risk scan of ${what}: ${decision} (${gateLine}).`,
    `Risk score ${result.risk_score}, confidence ${result.confidence}, flags: ${flags}.`,
    result.summary,
    result.recommendation,
  ].join(' ');
}

export function paidText(paidUsd: number, transaction: string | null): string {
  return `Paid ${paidUsd.toFixed(2)} USDC${transaction === null ? '' : ` (settlement ${transaction})`}.`;
}

/** A failure in one line, saying whether a payment was sent. */
export function failureText(error: unknown): string {
  if (error instanceof RiskScanError) {
    const money = error.paid ? 'A payment was sent and may have been charged.' : 'No payment was sent.';
    return `Risk scan failed (${error.code}): ${error.message} ${money}`;
  }
  return `Risk scan failed: ${error instanceof Error ? error.message : String(error)}`;
}
