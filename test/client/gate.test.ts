/**
 * gate(result, policy): the default policy allows `proceed` and `caution` only, blocks a result
 * too uncertain (confidence under 0.5) and one without a decision (fail closed); a policy may
 * block flags and move the line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_POLICY, type Decision, gate, type ScanResult } from '@solana-risk-scan/client';

const result = (decision: Decision | undefined, more: Partial<ScanResult> = {}): ScanResult => ({
  risk_score: 0.1,
  flags: [],
  confidence: 1,
  summary: 's',
  recommendation: 'r',
  reasoning: [],
  ...(decision === undefined ? {} : { evidence: { decision } }),
  ...more,
});

describe('gate', () => {
  it('by default allows proceed and caution, and blocks avoid and do_not_interact with the reason', () => {
    assert.deepEqual(gate(result('proceed')), { allow: true, decision: 'proceed', reasons: [] });
    assert.equal(gate(result('caution')).allow, true);
    assert.deepEqual(gate(result('avoid')), {
      allow: false,
      decision: 'avoid',
      reasons: ["decision avoid is past the policy's caution"],
    });
    assert.equal(gate(result('do_not_interact')).allow, false);
    assert.deepEqual(DEFAULT_POLICY, { maxDecision: 'caution', minConfidence: 0.5 });
  });

  it('blocks a result without a decision, or with one it does not know', () => {
    assert.deepEqual(gate(result(undefined)).reasons, ['the result carries no evidence.decision']);
    assert.equal(gate(result('later' as Decision)).allow, false);
  });

  it('blocks a proceed too uncertain to trust: confidence under the policy’s minimum', () => {
    const verdict = gate(result('proceed', { confidence: 0.4, flags: ['HISTORY_UNAVAILABLE'] }));
    assert.deepEqual(verdict.reasons, ['confidence 0.4 is under 0.5']);
    assert.equal(gate(result('proceed', { confidence: 0.5 })).allow, true);
  });

  it('a policy of its own: blocked flags, a stricter or looser line', () => {
    const flagged = result('proceed', { flags: ['MINT_AUTHORITY_ACTIVE', 'TRANSFER_FEE'] });
    assert.deepEqual(
      gate(flagged, { maxDecision: 'caution', blockFlags: ['MINT_AUTHORITY_ACTIVE'] }).reasons,
      ['blocked flags raised: MINT_AUTHORITY_ACTIVE'],
    );
    assert.equal(gate(result('caution'), { maxDecision: 'proceed' }).allow, false);
    assert.equal(gate(result('avoid', { confidence: 0.1 }), { maxDecision: 'avoid' }).allow, true);
  });
});
