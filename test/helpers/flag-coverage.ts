/**
 * Per-flag tests of a scan: each flag is shown raised (with every evidence key its catalog
 * promises) and shown not raised under the closest condition that must not raise it.
 * `assertEveryFlagRaised` fails when a catalog gains a flag that no test raises.
 *
 * `flagCoverage` serves the scanner-level flags.test.ts files; `assessCoverage` wraps a pure
 * assess step for the assess.test.ts files, checking the model's invariants on every result.
 */
import assert from 'node:assert/strict';
import type { ScanResult } from '../../src/contract/schemas.js';
import type { FlagCatalog } from '../../src/scans/risk/model.js';

/** A flag's own evidence under `evidence.flags`, with the weight the model applied. */
export type FlagEvidence = Record<string, unknown> & { weight_applied: number };

/** The expected value of every evidence key the catalog promises for `Code` (the type demands all). */
export type EvidenceOf<Catalog extends FlagCatalog, Code extends keyof Catalog> = {
  readonly [K in Catalog[Code]['evidenceKeys'][number]]: unknown;
};

/** What every result must satisfy, whatever the facts. */
export function assertResultInvariants(result: ScanResult): void {
  assert.ok(result.risk_score >= 0 && result.risk_score <= 1, `risk ${result.risk_score}`);
  assert.ok(result.confidence >= 0 && result.confidence <= 1, `confidence ${result.confidence}`);
  assert.match(result.summary, /\.$/, 'the summary ends as a sentence');
  assert.equal(result.summary.split(/[.!?]\s+\S/).length, 1, `one sentence: ${result.summary}`);
  assert.equal(new Set(result.flags).size, result.flags.length, 'no flag twice');
  assert.equal(result.reasoning.length >= result.flags.length, true, 'a reasoning line per flag');
}

/**
 * Unknown is never safe: the same subject with some data withheld (`blinded`) scores lower
 * confidence, no lower risk, and keeps every flag the full data raised.
 */
export function assertBlindedIsNoSafer(known: ScanResult, blinded: ScanResult, what: string): void {
  assert.ok(blinded.confidence < known.confidence, `${what}: ${blinded.confidence} < ${known.confidence}`);
  assert.ok(blinded.risk_score >= known.risk_score, `${what}: ${blinded.risk_score} >= ${known.risk_score}`);
  for (const code of known.flags) assert.ok(blinded.flags.includes(code), `${what}: ${code} kept`);
}

/** The result's evidence object: shared facts, and each flag's own under `flags`. */
export function evidenceOf(result: ScanResult): Record<string, unknown> {
  assert.ok(result.evidence, 'the result carries evidence');
  return result.evidence;
}

/** Each raised flag's own evidence, by code. */
export function flagEvidenceOf(result: ScanResult): Readonly<Record<string, FlagEvidence>> {
  const flags = evidenceOf(result).flags;
  assert.ok(typeof flags === 'object' && flags !== null, 'the evidence carries each flag’s own under flags');
  return flags as Record<string, FlagEvidence>;
}

/**
 * What every result of a pure assess step must satisfy, beyond `assertResultInvariants`: a
 * one-line summary, evidence for exactly the raised flags, every flag in `catalog` with a weight
 * in [0, 1], and one reasoning line per flag, in flag order.
 */
export function assertAssessInvariants(catalog: FlagCatalog, result: ScanResult): void {
  assertResultInvariants(result);
  assert.ok(!/[\r\n]/.test(result.summary), 'the summary is one line');
  assert.equal(result.summary.match(/[.!?](\s|$)/g)?.length, 1, `one sentence: ${result.summary}`);
  assert.equal(new Set(result.flags).size, result.flags.length, `no flag twice: [${result.flags}]`);
  const evidence = flagEvidenceOf(result);
  assert.deepEqual(Object.keys(evidence).sort(), [...result.flags].sort(), 'evidence for exactly the flags');
  for (const code of result.flags) {
    assert.ok(code in catalog, `${code} is in the catalog`);
    const weight = evidence[code]!.weight_applied;
    assert.ok(typeof weight === 'number' && weight >= 0 && weight <= 1, `${code} weight ${weight}`);
  }
  assert.deepEqual(
    result.reasoning.slice(0, result.flags.length).map((line) => line.split(' ')[0]),
    result.flags,
    'one reasoning line per flag, in flag order',
  );
}

/** Asserts `code` is raised with all its catalog evidence keys; `expected` values are compared too. */
function assertFlagRaised(
  catalog: FlagCatalog,
  result: ScanResult,
  code: string,
  expected: Readonly<Record<string, unknown>>,
): FlagEvidence {
  assert.ok(result.flags.includes(code), `${code} expected, got [${result.flags}]`);
  const found = flagEvidenceOf(result)[code];
  assert.ok(found, `${code} has its evidence under evidence.flags`);
  for (const key of catalog[code]!.evidenceKeys) assert.ok(key in found, `${code} evidence lacks ${key}`);
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(found[key], value, `${code} evidence ${key}`);
  }
  return found;
}

/** Every code of `catalog` (less those of `except`) is among `raised`, and no other code. */
function assertAllRaised(catalog: FlagCatalog, raised: ReadonlySet<string>, except: FlagCatalog): void {
  assert.deepEqual(
    [...raised].filter((code) => !(code in except)).sort(),
    Object.keys(catalog)
      .filter((code) => !(code in except))
      .sort(),
    'every catalog flag has a raising test',
  );
}

export function flagCoverage(catalog: FlagCatalog) {
  const raised = new Set<string>();
  return {
    /** Asserts `code` is raised with all its evidence keys; `evidence` values are compared too. */
    raised(
      result: ScanResult,
      code: string,
      evidence: Record<string, unknown> = {},
    ): Record<string, unknown> {
      assertResultInvariants(result);
      const found = assertFlagRaised(catalog, result, code, evidence);
      raised.add(code);
      return found;
    },
    notRaised(result: ScanResult, code: string): void {
      assertResultInvariants(result);
      assert.ok(!result.flags.includes(code), `${code} must not be raised: [${result.flags}]`);
    },
    assertEveryFlagRaised(): void {
      assertAllRaised(catalog, raised, {});
    },
  };
}

export interface AssessCoverageOptions {
  /** Further checks every result must pass (e.g. the advice given for its risk bucket). */
  readonly check?: (result: ScanResult) => void;
}

/**
 * Wraps a pure assess step: `assess` checks `assertAssessInvariants` (and `options.check`) on
 * every result and keeps it; `raised`/`expectRaised` record the codes shown raised, for
 * `assertEveryFlagRaised` at the end of the file.
 */
export function assessCoverage<Catalog extends FlagCatalog, Facts>(
  catalog: Catalog,
  run: (facts: Facts) => ScanResult,
  options: AssessCoverageOptions = {},
) {
  type Code = keyof Catalog & string;
  const results: ScanResult[] = [];
  const raisedCodes = new Set<string>();

  const check = (result: ScanResult): void => {
    assertAssessInvariants(catalog, result);
    options.check?.(result);
  };

  /**
   * Asserts `code` is raised, with every catalog evidence key, the `evidence` given compared
   * value by value, and a reasoning line of its own.
   */
  function raised(
    result: ScanResult,
    code: Code,
    evidence: Readonly<Record<string, unknown>> = {},
  ): FlagEvidence {
    const found = assertFlagRaised(catalog, result, code, evidence);
    assert.ok(
      result.reasoning.some((line) => line.startsWith(`${code} (+`)),
      `${code} has a reasoning line`,
    );
    raisedCodes.add(code);
    return found;
  }

  return {
    /** Every result `assess` produced, in order. */
    results: results as readonly ScanResult[],

    /** The assess step, with the invariants checked on every result it produces. */
    assess(facts: Facts): ScanResult {
      const result = run(facts);
      check(result);
      results.push(result);
      return result;
    },

    raised,

    /** `raised`, with the test naming the expected value of every evidence key the catalog promises. */
    expectRaised<C extends Code>(
      result: ScanResult,
      code: C,
      expected: EvidenceOf<Catalog, C>,
    ): FlagEvidence {
      const keys: readonly string[] = catalog[code]!.evidenceKeys;
      assert.deepEqual(Object.keys(expected).sort(), [...keys].sort(), `the test names every ${code} key`);
      return raised(result, code, expected);
    },

    /** Asserts `code` is not raised (`why` says what makes it so) and has no evidence. */
    notRaised(result: ScanResult, code: Code, why?: string): void {
      const because = why === undefined ? '' : ` (${why})`;
      assert.ok(!result.flags.includes(code), `${code} must not be raised${because}: [${result.flags}]`);
      assert.equal(flagEvidenceOf(result)[code], undefined, `${code} has no evidence`);
    },

    /** The weight the model applied to a raised `code`. */
    weightOf(result: ScanResult, code: Code): number {
      const found = flagEvidenceOf(result)[code];
      assert.ok(found, `${code} has its evidence under evidence.flags`);
      return found.weight_applied;
    },

    /** More than `moreThan` results were produced, and every one still meets the invariants. */
    assertEveryResultChecked(moreThan: number): void {
      assert.ok(results.length > moreThan, `${results.length} results checked against the invariants`);
      for (const result of results) check(result);
    },

    /** Every flag of the catalog, less those of `except`, was shown raised by some test. */
    assertEveryFlagRaised(except: FlagCatalog = {}): void {
      assertAllRaised(catalog, raisedCodes, except);
    },
  };
}
