/**
 * Pure scoring: noisy-OR of weighted flags, floors for proof of harm, confidence from
 * coverage, and recommendation buckets. Monotone, bounded and order-independent.
 */
import { type Decision, decisionOf } from '../../contract/decision.js';
import { type FlagCatalog, type FlagHit, RISK_FLOOR, SEVERITY_WEIGHT, type Severity } from './model.js';

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Weight a hit contributes: severity weight × strength × multiplier, within [0, 1]. */
export function contribution(hit: FlagHit, catalog: FlagCatalog): number {
  const definition = catalog[hit.code];
  if (definition === undefined) throw new Error(`flag ${hit.code} is not in the catalog`);
  const severity: Severity = hit.severity ?? definition.severity;
  return clamp01(SEVERITY_WEIGHT[severity] * clamp01(hit.strength) * clamp01(hit.multiplier ?? 1));
}

/** risk = 1 − Π(1 − contribution), then at least RISK_FLOOR if any floored flag is raised. */
export function combineRisk(hits: readonly FlagHit[], catalog: FlagCatalog): number {
  let keep = 1;
  let floored = false;
  for (const hit of hits) {
    keep *= 1 - contribution(hit, catalog);
    if (catalog[hit.code]?.floor && clamp01(hit.strength) > 0) floored = true;
  }
  const risk = 1 - keep;
  return clamp01(floored ? Math.max(risk, RISK_FLOOR) : risk);
}

/** confidence = Π(1 − penalty) over flags that report missing data; unknown never lowers risk. */
export function combineConfidence(hits: readonly FlagHit[], catalog: FlagCatalog): number {
  let confidence = 1;
  for (const hit of hits) confidence *= 1 - clamp01(catalog[hit.code]?.confidencePenalty ?? 0);
  return clamp01(confidence);
}

/** A result's bucket is its decision (src/contract/decision.ts holds the one table). */
export type Bucket = Decision;
export const bucketOf: (risk: number) => Bucket = decisionOf;
