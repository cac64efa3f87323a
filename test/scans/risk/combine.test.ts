import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bucketOf, combineConfidence, combineRisk } from '../../../src/scans/risk/combine.js';
import type { FlagCatalog, FlagHit } from '../../../src/scans/risk/model.js';
import { buildResult, withDecision } from '../../../src/scans/risk/result.js';

const CATALOG: FlagCatalog = {
  HIGH_ONE: { severity: 'high', meaning: 'a high flag', evidenceKeys: ['k'] },
  MEDIUM_ONE: { severity: 'medium', meaning: 'a medium flag', evidenceKeys: [] },
  INFO_ONE: { severity: 'info', meaning: 'informational', evidenceKeys: [] },
  HARM: { severity: 'critical', meaning: 'cannot sell', evidenceKeys: [], floor: true },
  DATA_UNAVAILABLE: { severity: 'low', meaning: 'missing', evidenceKeys: [], confidencePenalty: 0.3 },
};

const hit = (code: string, strength = 1, extra: Partial<FlagHit> = {}): FlagHit => ({
  code,
  strength,
  evidence: { k: 1 },
  reason: `${code} reason`,
  ...extra,
});

describe('combineRisk', () => {
  it('is 0 without flags and equals the weight for one full-strength flag', () => {
    assert.equal(combineRisk([], CATALOG), 0);
    assert.equal(combineRisk([hit('HIGH_ONE')], CATALOG), 0.6);
    assert.equal(combineRisk([hit('INFO_ONE')], CATALOG), 0);
  });

  it('combines by noisy-OR: 1 − (1 − 0.6)(1 − 0.3) = 0.72', () => {
    assert.ok(Math.abs(combineRisk([hit('HIGH_ONE'), hit('MEDIUM_ONE')], CATALOG) - 0.72) < 1e-12);
  });

  it('applies strength, multiplier and a per-hit severity override', () => {
    assert.ok(Math.abs(combineRisk([hit('HIGH_ONE', 0.5)], CATALOG) - 0.3) < 1e-12);
    assert.ok(Math.abs(combineRisk([hit('HIGH_ONE', 1, { multiplier: 0.2 })], CATALOG) - 0.12) < 1e-12);
    assert.equal(combineRisk([hit('MEDIUM_ONE', 1, { severity: 'critical' })], CATALOG), 0.9);
  });

  it('floors proof-of-harm flags at 0.85, but not at zero strength', () => {
    assert.equal(combineRisk([hit('HARM', 0.1)], CATALOG), 0.85);
    assert.equal(combineRisk([hit('HARM', 0)], CATALOG), 0);
  });

  it('is bounded, order-independent and monotone in added flags (property)', () => {
    const codes = fc.constantFrom(...Object.keys(CATALOG));
    const hits = fc.array(
      fc.record({
        code: codes,
        strength: fc.double({ min: -1, max: 2, noNaN: true }),
        multiplier: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(hits, codes, (raw, extra) => {
        const list = raw.map((r) => hit(r.code, r.strength, { multiplier: r.multiplier }));
        const risk = combineRisk(list, CATALOG);
        assert.ok(risk >= 0 && risk <= 1);
        assert.ok(Math.abs(combineRisk([...list].reverse(), CATALOG) - risk) < 1e-12);
        assert.ok(combineRisk([...list, hit(extra)], CATALOG) >= risk - 1e-12);
      }),
    );
  });

  it('refuses a flag that is not in the catalog', () => {
    assert.throws(() => combineRisk([hit('NOPE')], CATALOG), /not in the catalog/);
  });
});

describe('combineConfidence', () => {
  it('drops with missing data and never goes below 0', () => {
    assert.equal(combineConfidence([hit('HIGH_ONE')], CATALOG), 1);
    assert.ok(Math.abs(combineConfidence([hit('DATA_UNAVAILABLE')], CATALOG) - 0.7) < 1e-12);
    const many = Array.from({ length: 50 }, () => hit('DATA_UNAVAILABLE'));
    assert.ok(combineConfidence(many, CATALOG) >= 0);
  });

  it('an unavailable check never lowers risk', () => {
    const base = [hit('MEDIUM_ONE')];
    assert.ok(combineRisk([...base, hit('DATA_UNAVAILABLE')], CATALOG) >= combineRisk(base, CATALOG));
  });
});

describe('buckets and results', () => {
  it('maps scores to the four buckets at 0.2, 0.5 and 0.8', () => {
    assert.deepEqual([0, 0.19, 0.2, 0.49, 0.5, 0.79, 0.8, 1].map(bucketOf), [
      'proceed',
      'proceed',
      'caution',
      'caution',
      'avoid',
      'avoid',
      'do_not_interact',
      'do_not_interact',
    ]);
  });

  it('builds a ScanResult with flags ordered by contribution, evidence per flag and one-sentence summary', () => {
    const result = buildResult(
      {
        subject: 'Token X',
        hits: [hit('MEDIUM_ONE'), hit('HIGH_ONE'), hit('DATA_UNAVAILABLE')],
        facts: { mint: 'X' },
        advice: { proceed: 'go', caution: 'careful', avoid: 'avoid it', do_not_interact: 'never' },
      },
      CATALOG,
    );
    assert.deepEqual(result.flags, ['HIGH_ONE', 'MEDIUM_ONE', 'DATA_UNAVAILABLE']);
    assert.equal(result.recommendation, 'avoid it');
    assert.equal(result.confidence, 0.7);
    assert.match(result.summary, /^Token X: high risk, driven by HIGH_ONE and MEDIUM_ONE and 1 more\.$/);
    assert.equal((result.evidence as any).flags.HIGH_ONE.k, 1);
    assert.equal((result.evidence as any).flags.HIGH_ONE.weight_applied, 0.6);
    assert.equal(result.reasoning[0], 'HIGH_ONE (+0.6): HIGH_ONE reason');
  });

  it('counts a code once: the strongest of repeated hits stands, listed once', () => {
    const result = buildResult(
      {
        subject: 'Token X',
        hits: [
          hit('HIGH_ONE', 0.5, { evidence: { k: 'weak' } }),
          hit('HIGH_ONE', 1, { evidence: { k: 'strong' } }),
        ],
        facts: {},
        advice: { proceed: 'go', caution: 'careful', avoid: 'avoid it', do_not_interact: 'never' },
      },
      CATALOG,
    );
    assert.deepEqual(result.flags, ['HIGH_ONE']);
    assert.equal(result.risk_score, 0.6);
    assert.equal((result.evidence as any).flags.HIGH_ONE.k, 'strong');
    assert.equal(result.reasoning.filter((line) => line.startsWith('HIGH_ONE')).length, 1);
  });

  const ADVICE = { proceed: 'go', caution: 'careful', avoid: 'avoid it', do_not_interact: 'never' } as const;

  it('gives evidence.decision, the bucket of the published risk_score that the recommendation is worded from', () => {
    const codes = fc.constantFrom(...Object.keys(CATALOG));
    const hits = fc.array(fc.record({ code: codes, strength: fc.double({ min: 0, max: 1, noNaN: true }) }), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(hits, (raw) => {
        const result = buildResult(
          { subject: 'Token X', hits: raw.map((r) => hit(r.code, r.strength)), facts: {}, advice: ADVICE },
          CATALOG,
        );
        const decision = (result.evidence as any).decision;
        assert.equal(decision, bucketOf(result.risk_score));
        assert.equal(result.recommendation, ADVICE[decision as keyof typeof ADVICE]);
      }),
    );
  });

  it('a raw score just under a threshold that publishes as the threshold is in the bucket above', () => {
    // 0.6 × 0.33326 = 0.199956, published as 0.2: a reader's lookup says caution, and so do the words.
    const result = buildResult(
      { subject: 'Token X', hits: [hit('HIGH_ONE', 0.33326)], facts: {}, advice: ADVICE },
      CATALOG,
    );
    assert.equal(result.risk_score, 0.2);
    assert.equal((result.evidence as any).decision, 'caution');
    assert.equal(result.recommendation, 'careful');
  });

  it('gives a result without a decision (cached before decisions) its decision, first in evidence', () => {
    const old = {
      ...buildResult({ subject: 'X', hits: [hit('HARM')], facts: { a: 1 }, advice: ADVICE }, CATALOG),
    };
    const { decision: _, ...evidence } = old.evidence as Record<string, unknown>;
    const given = withDecision({ ...old, evidence });
    assert.deepEqual(Object.keys(given.evidence ?? {}), ['decision', 'a', 'flags']);
    assert.equal((given.evidence as any).decision, 'do_not_interact');
  });
});
