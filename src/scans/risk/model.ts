/**
 * The shared risk model's vocabulary: flag definitions, what an assessment step reports,
 * and the severity weights. Clients key on flag codes: never rename or remove one.
 */

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

/** Base weight of each severity in the noisy-OR combiner. */
export const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = {
  critical: 0.9,
  high: 0.6,
  medium: 0.3,
  low: 0.1,
  info: 0,
};

export interface FlagDefinition {
  readonly severity: Severity;
  /** One sentence: what the flag means for someone about to interact with the subject. */
  readonly meaning: string;
  /** Evidence keys every hit of this flag carries (raw on-chain values). */
  readonly evidenceKeys: readonly string[];
  /** Proof of harm (cannot sell, drained, …): raises the score to at least RISK_FLOOR. */
  readonly floor?: boolean;
  /** Lost confidence when this flag is raised (data that could not be fetched). */
  readonly confidencePenalty?: number;
}

export type FlagCatalog = Readonly<Record<string, FlagDefinition>>;

/** One raised flag, as an assessment rule reports it. */
export interface FlagHit<Code extends string = string> {
  readonly code: Code;
  /** How strongly the condition holds, 0..1 (e.g. concentration between thresholds). */
  readonly strength: number;
  /** Context multiplier, 0..1 (e.g. 0.2 for a trusted issuer's centralisation flags). */
  readonly multiplier?: number;
  /** The severity this hit is scored at, when the rule escalates or lowers the default. */
  readonly severity?: Severity;
  /** Raw values behind the flag; must include the definition's evidence keys. */
  readonly evidence: Readonly<Record<string, unknown>>;
  /** One reasoning line, plain English, for the `reasoning` array. */
  readonly reason: string;
}

/** Scores at or above this are floored for proof-of-harm flags. */
export const RISK_FLOOR = 0.85;
