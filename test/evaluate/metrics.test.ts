/** The evaluation's arithmetic on known inputs: confusion, precision and recall, distributions, flag rates. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabelledSubject } from '../../src/evaluate/labels.js';
import {
  classOf,
  confusion,
  distribution,
  evaluateScores,
  flagRates,
  median,
  precisionRecall,
  type Scored,
  separators,
} from '../../src/evaluate/metrics.js';

let line = 0;
const scored = (
  endpoint: LabelledSubject['endpoint'],
  label: string,
  outcome: number | string,
  flags: string[] = [],
): Scored => ({
  subject: { endpoint, address: `addr${++line}`, label, note: '', extra: {}, line },
  outcome:
    typeof outcome === 'number'
      ? { ok: true, score: outcome, confidence: 1, flags }
      : { ok: false, error: outcome },
});

describe('evaluation metrics', () => {
  it('precision and recall of the high-risk bucket: 3 of 4 flagged are bad, 3 of 5 bad are flagged', () => {
    const matrix = confusion([
      ...Array.from({ length: 3 }, () => ({ bad: true, flagged: true })),
      { bad: false, flagged: true },
      ...Array.from({ length: 2 }, () => ({ bad: true, flagged: false })),
      ...Array.from({ length: 6 }, () => ({ bad: false, flagged: false })),
    ]);
    assert.deepEqual(matrix, { tp: 3, fp: 1, fn: 2, tn: 6 });
    assert.deepEqual(precisionRecall(matrix), { precision: 0.75, recall: 0.6 });
  });

  it('nothing flagged, or nothing bad: the ratio is null, not 0 or NaN', () => {
    assert.deepEqual(precisionRecall({ tp: 0, fp: 0, fn: 2, tn: 3 }), { precision: null, recall: 0 });
    assert.deepEqual(precisionRecall({ tp: 0, fp: 1, fn: 0, tn: 3 }), { precision: 0, recall: null });
  });

  it('median of odd and even counts; distribution by bucket edges 0.2, 0.5, 0.8', () => {
    assert.equal(median([]), null);
    assert.equal(median([0.9, 0.1, 0.5]), 0.5);
    assert.equal(median([0.4, 0.1, 0.3, 0.2]), 0.25);
    const d = distribution([0, 0.19, 0.2, 0.49, 0.5, 0.79, 0.8, 1]);
    assert.deepEqual(d.buckets, { proceed: 2, caution: 2, avoid: 2, do_not_interact: 2 });
    assert.deepEqual([d.n, d.min, d.max], [8, 0, 1]);
    assert.deepEqual(distribution([]), {
      n: 0,
      min: null,
      median: null,
      max: null,
      buckets: { proceed: 0, caution: 0, avoid: 0, do_not_interact: 0 },
    });
  });

  it('flag rates count each subject once, most frequent first; separators rank by difference', () => {
    assert.deepEqual(flagRates([['A', 'B', 'A'], ['A'], []]), [
      { flag: 'A', count: 2, rate: 2 / 3 },
      { flag: 'B', count: 1, rate: 1 / 3 },
    ]);
    const seps = separators([['RUG', 'NEW'], ['RUG']], [['NEW'], ['TRUSTED'], []]);
    assert.deepEqual(
      seps.map((s) => [s.flag, Math.round(s.difference * 100) / 100]),
      [
        ['RUG', 1],
        ['TRUSTED', -0.33],
        ['NEW', 0.17],
      ],
    );
  });

  it('labels are classed bad, good or other', () => {
    assert.deepEqual(
      ['rug', 'honeypot', 'drainer', 'risky', 'legit', 'safe', 'unknown', 'failed'].map(classOf),
      ['bad', 'bad', 'bad', 'bad', 'good', 'good', 'other', 'other'],
    );
  });

  it('per endpoint: other labels and failed scans are reported but never counted in precision or recall', () => {
    const reports = evaluateScores([
      scored('token', 'rug', 0.9, ['MINT_AUTHORITY_ACTIVE', 'TOKEN_NEW']),
      scored('token', 'rug', 0.3, ['TOKEN_NEW']),
      scored('token', 'legit', 0.6, ['MINT_AUTHORITY_ACTIVE', 'TRUSTED_ISSUER']),
      scored('token', 'legit', 0.1),
      scored('token', 'unknown', 0.95),
      scored('token', 'rug', 'the RPC refused: 429'),
      scored('program', 'legit', 0),
    ]);
    assert.deepEqual(
      reports.map((r) => r.endpoint),
      ['token', 'program'],
      'catalog order, only endpoints with subjects',
    );
    const token = reports[0]!;
    assert.deepEqual([token.subjects, token.scanned], [6, 5]);
    assert.deepEqual({ ...token.high_risk }, { tp: 1, fp: 1, fn: 1, tn: 1, precision: 0.5, recall: 0.5 });
    assert.deepEqual(token.errors, [
      { line: line - 1, address: `addr${line - 1}`, label: 'rug', error: 'the RPC refused: 429' },
    ]);
    assert.deepEqual(
      token.labels.map((l) => [l.label, l.class, l.distribution.n, l.distribution.median]),
      [
        ['rug', 'bad', 2, 0.6],
        ['legit', 'good', 2, 0.35],
        ['unknown', 'other', 1, 0.95],
      ],
    );
    assert.deepEqual(token.separating_flags[0], {
      flag: 'TOKEN_NEW',
      bad_rate: 1,
      good_rate: 0,
      difference: 1,
    });
  });
});
