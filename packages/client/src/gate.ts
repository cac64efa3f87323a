/**
 * Whether an agent should go ahead with what it scanned: a policy over the result's decision,
 * flags and confidence. A result without a decision is never allowed (fail closed).
 */
import { DECISIONS, type Decision, type FlagCode, type ScanResult } from './types.js';

export interface GatePolicy {
  /** The worst decision still allowed. */
  readonly maxDecision: Decision;
  /** Flags that block whatever the decision. */
  readonly blockFlags?: readonly FlagCode[];
  /** Below this confidence (0..1) the result is too uncertain to allow anything. */
  readonly minConfidence?: number;
}

export interface GateVerdict {
  readonly allow: boolean;
  readonly decision: Decision | null;
  /** Why it is blocked, one line each; empty when allowed. */
  readonly reasons: string[];
}

/**
 * Allows `proceed` and `caution`; blocks `avoid` and `do_not_interact`, and any result whose
 * confidence is under 0.5 (too much could not be read to call it safe).
 */
export const DEFAULT_POLICY: GatePolicy = Object.freeze({ maxDecision: 'caution', minConfidence: 0.5 });

const rank = (decision: Decision) => DECISIONS.indexOf(decision);

export function gate(result: ScanResult, policy: GatePolicy = DEFAULT_POLICY): GateVerdict {
  const raw = result.evidence?.decision;
  const decision = raw !== undefined && DECISIONS.includes(raw) ? raw : null;
  const reasons: string[] = [];
  if (decision === null) reasons.push('the result carries no evidence.decision');
  else if (rank(decision) > rank(policy.maxDecision))
    reasons.push(`decision ${decision} is past the policy's ${policy.maxDecision}`);
  const blocked = result.flags.filter((flag) => policy.blockFlags?.includes(flag));
  if (blocked.length > 0) reasons.push(`blocked flags raised: ${blocked.join(', ')}`);
  if (policy.minConfidence !== undefined && result.confidence < policy.minConfidence)
    reasons.push(`confidence ${result.confidence} is under ${policy.minConfidence}`);
  return { allow: reasons.length === 0, decision, reasons };
}
