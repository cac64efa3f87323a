/**
 * The decision a result's risk_score falls in: the one table the recommendations are worded
 * from, `evidence.decision` is named from, and /openapi.json, the discovery documents and
 * docs/risk-model.md publish. Self-contained (no imports), so a client can copy it as it is.
 */

/** What an agent should do with the subject, from least to most risky. */
export const DECISIONS = ['proceed', 'caution', 'avoid', 'do_not_interact'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface DecisionBucket {
  readonly decision: Decision;
  /** The lowest risk_score in this bucket; it runs up to the next bucket's, which it excludes. */
  readonly min_score: number;
  /** The risk level in words, as summaries say it. */
  readonly level: string;
  /** What the recommendation advises, in general terms. */
  readonly advice: string;
}

/** Ascending by min_score, the first at 0: every score in [0, 1] falls in exactly one bucket. */
export const DECISION_TABLE: readonly DecisionBucket[] = [
  { decision: 'proceed', min_score: 0, level: 'low risk', advice: 'interact as usual' },
  {
    decision: 'caution',
    min_score: 0.2,
    level: 'moderate risk',
    advice: 'limit exposure, check the flagged points',
  },
  {
    decision: 'avoid',
    min_score: 0.5,
    level: 'high risk',
    advice: 'do not interact unless the flagged points are understood and accepted',
  },
  { decision: 'do_not_interact', min_score: 0.8, level: 'critical risk', advice: 'do not interact' },
];

/** The bucket of `riskScore`: the last one whose min_score it reaches. */
export function decisionOf(riskScore: number): Decision {
  let found: Decision = DECISION_TABLE[0]!.decision;
  for (const bucket of DECISION_TABLE) if (riskScore >= bucket.min_score) found = bucket.decision;
  return found;
}

/** Where a result carries its decision. */
export const DECISION_FIELD = 'evidence.decision';

/** The table as /openapi.json (`x-risk-decision`) and the discovery documents publish it. */
export function publishedDecisionTable() {
  return {
    field: DECISION_FIELD,
    score: 'risk_score',
    rule: 'decision is the bucket with the highest min_score at or below risk_score',
    buckets: DECISION_TABLE,
  };
}
