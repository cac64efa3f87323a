/**
 * How well the scores separate labelled subjects, per endpoint: precision and recall of the
 * high-risk bucket against the labels, the score distribution of each label, the flags each
 * label carries and those that differ most between bad and good subjects, and the subjects that
 * could not be scanned. Pure: scored subjects in, a report out.
 */
import { type EndpointId, PAID_ENDPOINTS } from '../catalog.js';
import { type Bucket, bucketOf } from '../scans/risk/combine.js';
import type { LabelledSubject } from './labels.js';

/**
 * Labels of subjects a caller should be told to stay away from: the high-risk bucket should
 * catch them. `risky` marks a subject with a real, documented danger that is not a scam as such
 * (a live mint authority on an unknown token, a single-key upgrade authority, a burner wallet).
 */
export const BAD_LABELS: readonly string[] = [
  'rug',
  'scam',
  'honeypot',
  'drainer',
  'malicious',
  'phishing',
  'risky',
];
/** Labels of subjects a caller may use: the high-risk bucket should leave them out. */
export const GOOD_LABELS: readonly string[] = ['legit', 'benign', 'safe'];
/** Any other label (`unknown`, `wrong-kind`, …) is reported but counts in neither. */
export type LabelClass = 'bad' | 'good' | 'other';

export function classOf(label: string): LabelClass {
  return BAD_LABELS.includes(label) ? 'bad' : GOOD_LABELS.includes(label) ? 'good' : 'other';
}

/** The high-risk bucket: avoid and do not interact. */
export const HIGH_RISK_BUCKETS: readonly Bucket[] = ['avoid', 'do_not_interact'];
export const isHighRisk = (score: number) => HIGH_RISK_BUCKETS.includes(bucketOf(score));

export type Outcome =
  | {
      readonly ok: true;
      readonly score: number;
      readonly confidence: number;
      readonly flags: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

export interface Scored {
  readonly subject: LabelledSubject;
  readonly outcome: Outcome;
}

export interface Confusion {
  /** Bad and in the high-risk bucket. */
  readonly tp: number;
  /** Good but in the high-risk bucket. */
  readonly fp: number;
  /** Bad but not in the high-risk bucket. */
  readonly fn: number;
  readonly tn: number;
}

export function confusion(items: readonly { bad: boolean; flagged: boolean }[]): Confusion {
  const count = (bad: boolean, flagged: boolean) =>
    items.filter((i) => i.bad === bad && i.flagged === flagged).length;
  return { tp: count(true, true), fp: count(false, true), fn: count(true, false), tn: count(false, false) };
}

/** Null where the ratio has nothing to count (no subject flagged, no bad subject). */
export function precisionRecall(c: Confusion): { precision: number | null; recall: number | null } {
  const ratio = (n: number, d: number) => (d === 0 ? null : n / d);
  return { precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Distribution {
  readonly n: number;
  readonly min: number | null;
  readonly median: number | null;
  readonly max: number | null;
  readonly buckets: Readonly<Record<Bucket, number>>;
}

export function distribution(scores: readonly number[]): Distribution {
  const buckets: Record<Bucket, number> = { proceed: 0, caution: 0, avoid: 0, do_not_interact: 0 };
  for (const s of scores) buckets[bucketOf(s)]++;
  return {
    n: scores.length,
    min: scores.length ? Math.min(...scores) : null,
    median: median(scores),
    max: scores.length ? Math.max(...scores) : null,
    buckets,
  };
}

export interface FlagRate {
  readonly flag: string;
  readonly count: number;
  /** Share of the label's scanned subjects that carry the flag. */
  readonly rate: number;
}

/** Flags by how many of `flagSets` carry them, most frequent first (ties by name). */
export function flagRates(flagSets: readonly (readonly string[])[]): FlagRate[] {
  const counts = new Map<string, number>();
  for (const flags of flagSets) for (const f of new Set(flags)) counts.set(f, (counts.get(f) ?? 0) + 1);
  return [...counts]
    .map(([flag, count]) => ({ flag, count, rate: count / flagSets.length }))
    .sort((a, b) => b.count - a.count || a.flag.localeCompare(b.flag));
}

export interface Separator {
  readonly flag: string;
  readonly bad_rate: number;
  readonly good_rate: number;
  /** bad_rate − good_rate: positive for a flag that marks bad subjects. */
  readonly difference: number;
}

/** Flags whose share differs most between bad and good subjects, largest difference first. */
export function separators(
  bad: readonly (readonly string[])[],
  good: readonly (readonly string[])[],
  limit = 10,
): Separator[] {
  const rate = (sets: readonly (readonly string[])[], flag: string) =>
    sets.length === 0 ? 0 : sets.filter((s) => s.includes(flag)).length / sets.length;
  const flags = new Set([...bad, ...good].flat());
  return [...flags]
    .map((flag) => {
      const b = rate(bad, flag);
      const g = rate(good, flag);
      return { flag, bad_rate: b, good_rate: g, difference: b - g };
    })
    .filter((s) => s.difference !== 0)
    .sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference) || a.flag.localeCompare(b.flag))
    .slice(0, limit);
}

export interface LabelReport {
  readonly label: string;
  readonly class: LabelClass;
  readonly distribution: Distribution;
  readonly flags: readonly FlagRate[];
}

export interface SubjectError {
  readonly line: number;
  readonly address: string;
  readonly label: string;
  readonly error: string;
}

export interface EndpointReport {
  readonly endpoint: EndpointId;
  readonly path: string;
  readonly subjects: number;
  readonly scanned: number;
  readonly high_risk: Confusion & { precision: number | null; recall: number | null };
  readonly labels: readonly LabelReport[];
  readonly separating_flags: readonly Separator[];
  readonly errors: readonly SubjectError[];
}

function endpointReport(
  endpoint: (typeof PAID_ENDPOINTS)[number],
  scored: readonly Scored[],
): EndpointReport {
  const ok = scored.flatMap((s) => (s.outcome.ok ? [{ subject: s.subject, ...s.outcome }] : []));
  const counted = ok.filter((s) => classOf(s.subject.label) !== 'other');
  const matrix = confusion(
    counted.map((s) => ({ bad: classOf(s.subject.label) === 'bad', flagged: isHighRisk(s.score) })),
  );
  const labelNames = [...new Set(scored.map((s) => s.subject.label))].sort(
    (a, b) =>
      ['bad', 'good', 'other'].indexOf(classOf(a)) - ['bad', 'good', 'other'].indexOf(classOf(b)) ||
      a.localeCompare(b),
  );
  const flagsOf = (cls: LabelClass) => ok.filter((s) => classOf(s.subject.label) === cls).map((s) => s.flags);
  return {
    endpoint: endpoint.id,
    path: endpoint.path,
    subjects: scored.length,
    scanned: ok.length,
    high_risk: { ...matrix, ...precisionRecall(matrix) },
    labels: labelNames.map((label) => {
      const mine = ok.filter((s) => s.subject.label === label);
      return {
        label,
        class: classOf(label),
        distribution: distribution(mine.map((s) => s.score)),
        flags: flagRates(mine.map((s) => s.flags)),
      };
    }),
    separating_flags: separators(flagsOf('bad'), flagsOf('good')),
    errors: scored.flatMap((s) =>
      s.outcome.ok
        ? []
        : [
            {
              line: s.subject.line,
              address: s.subject.address,
              label: s.subject.label,
              error: s.outcome.error,
            },
          ],
    ),
  };
}

/** One report per endpoint that has labelled subjects, in catalog order. */
export function evaluateScores(scored: readonly Scored[]): EndpointReport[] {
  const byEndpoint = new Map<EndpointId, Scored[]>();
  for (const s of scored) {
    const group = byEndpoint.get(s.subject.endpoint);
    if (group === undefined) byEndpoint.set(s.subject.endpoint, [s]);
    else group.push(s);
  }
  return PAID_ENDPOINTS.flatMap((endpoint) => {
    const mine = byEndpoint.get(endpoint.id);
    return mine === undefined ? [] : [endpointReport(endpoint, mine)];
  });
}
