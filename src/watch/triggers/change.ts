/** Whether a subject's verdict changed between two scans, and the alert that says how. */
import type { ScanResult } from '../../contract/schemas.js';
import type { AlertPayload, VerdictChange, Watch } from '../model.js';

/**
 * Score moves smaller than this are not a change: a holder share or an age in hours moves the
 * score by thousandths between two scans of an untouched subject.
 */
export const SCORE_EPSILON = 0.02;

/** What changed from `before` to `after`, or null: the same flags and a score within `epsilon`. */
export function verdictChange(
  before: ScanResult,
  after: ScanResult,
  epsilon = SCORE_EPSILON,
): VerdictChange | null {
  const had = new Set(before.flags);
  const has = new Set(after.flags);
  const flagsAdded = after.flags.filter((f) => !had.has(f));
  const flagsRemoved = before.flags.filter((f) => !has.has(f));
  const moved = Math.abs(after.risk_score - before.risk_score) > epsilon;
  if (flagsAdded.length === 0 && flagsRemoved.length === 0 && !moved) return null;
  return { scoreBefore: before.risk_score, scoreAfter: after.risk_score, flagsAdded, flagsRemoved };
}

export function alertPayload(watch: Watch, changed: VerdictChange, after: ScanResult): AlertPayload {
  return {
    type: 'watch.changed',
    watch_id: watch.id,
    kind: watch.kind,
    subject: watch.subject,
    changed,
    before: watch.latest,
    after,
  };
}
