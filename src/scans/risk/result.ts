/**
 * Turns flag hits into the ScanResult a caller reads: score, confidence, flags, one-sentence
 * summary, recommendation and reasoning lines. Pure; the HTTP layer adds request_id etc.
 */
import { DECISION_TABLE, decisionOf } from '../../contract/decision.js';
import type { ScanResult } from '../../contract/schemas.js';
import { type Bucket, bucketOf, combineConfidence, combineRisk, contribution } from './combine.js';
import type { FlagCatalog, FlagHit } from './model.js';

export interface Assessment {
  /** What was scanned, in a few words: "Token EPjF…t1v (USD Coin)". */
  readonly subject: string;
  readonly hits: readonly FlagHit[];
  /** Evidence shared by all flags (subject facts), merged with each flag's own evidence. */
  readonly facts: Readonly<Record<string, unknown>>;
  /** What a caller should do, per bucket, worded for this kind of subject. */
  readonly advice: Readonly<Record<Bucket, string>>;
  /** Lines that explain the verdict beyond the flags (e.g. what was checked and found fine). */
  readonly notes?: readonly string[];
  /** Confidence factor for limits not tied to a flag (e.g. a sampled history), 0..1. */
  readonly coverage?: number;
  /**
   * Words the summary and recommendation for this subject when the generic ones would mislead
   * (a trusted issuer's own powers); null keeps the generic ones. Never changes the score.
   */
  readonly wording?: (verdict: Verdict) => Wording | null;
}

/** What the generic wording is built from, for an Assessment's own `wording`. */
export interface Verdict {
  readonly subject: string;
  readonly risk: number;
  /** One hit per code, largest contribution first. */
  readonly ordered: readonly FlagHit[];
  readonly catalog: FlagCatalog;
}

export interface Wording {
  readonly summary: string;
  readonly recommendation: string;
}

/**
 * Advice for answers about the subject's kind (not a mint, not a program, no such transaction):
 * the same words whatever the score, because what the caller must do does not depend on it.
 */
export function sameAdvice(text: string): Readonly<Record<Bucket, string>> {
  return { proceed: text, caution: text, avoid: text, do_not_interact: text };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** RPC values arrive as bigint; the wire is JSON, so they travel as decimal strings. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}

export const BUCKET_WORDS = Object.fromEntries(DECISION_TABLE.map((b) => [b.decision, b.level])) as Readonly<
  Record<Bucket, string>
>;

/**
 * The result with `evidence.decision`, the bucket of its published risk_score, as the first
 * evidence key. A result cached before decisions existed gains it on the way out.
 */
export function withDecision(result: ScanResult): ScanResult {
  return { ...result, evidence: { decision: decisionOf(result.risk_score), ...result.evidence } };
}

function summarise(subject: string, risk: number, ordered: readonly FlagHit[]): string {
  const level = BUCKET_WORDS[bucketOf(risk)];
  const scoring = ordered.filter((h) => h.strength > 0);
  if (scoring.length === 0) return `${subject}: ${level}; no risk flags were raised.`;
  const top = scoring
    .slice(0, 2)
    .map((h) => h.code)
    .join(' and ');
  const more = scoring.length > 2 ? ` and ${scoring.length - 2} more` : '';
  return `${subject}: ${level}, driven by ${top}${more}.`;
}

/**
 * One hit per code: a rule that reports the same code twice (e.g. once per authority) would
 * otherwise count its weight twice and list the code twice. The strongest hit stands.
 */
function oneHitPerCode(hits: readonly FlagHit[], catalog: FlagCatalog): FlagHit[] {
  const strongest = new Map<string, FlagHit>();
  for (const h of hits) {
    const seen = strongest.get(h.code);
    if (seen === undefined || contribution(h, catalog) > contribution(seen, catalog))
      strongest.set(h.code, h);
  }
  return [...strongest.values()];
}

export function buildResult(assessment: Assessment, catalog: FlagCatalog): ScanResult {
  const hits = oneHitPerCode(assessment.hits, catalog);
  const ordered = [...hits].sort((a, b) => contribution(b, catalog) - contribution(a, catalog));
  // The published score decides the bucket, so a reader's table lookup always agrees with the words.
  const risk = round(combineRisk(hits, catalog));
  const confidence = combineConfidence(hits, catalog) * Math.min(1, Math.max(0, assessment.coverage ?? 1));
  const wording = assessment.wording?.({ subject: assessment.subject, risk, ordered, catalog }) ?? {
    summary: summarise(assessment.subject, risk, ordered),
    recommendation: assessment.advice[bucketOf(risk)],
  };
  const flagEvidence = Object.fromEntries(
    ordered.map((h) => [h.code, { ...h.evidence, weight_applied: round(contribution(h, catalog)) }]),
  );
  return withDecision({
    risk_score: risk,
    flags: ordered.map((h) => h.code),
    confidence: round(confidence),
    summary: wording.summary,
    recommendation: wording.recommendation,
    reasoning: [
      ...ordered.map((h) => `${h.code} (+${round(contribution(h, catalog))}): ${h.reason}`),
      ...(assessment.notes ?? []),
    ],
    evidence: jsonSafe({ ...assessment.facts, flags: flagEvidence }) as Record<string, unknown>,
  });
}
