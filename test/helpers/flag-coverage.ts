/**
 * Per-flag tests of a pure assess step: each flag is shown raised (with every evidence key its
 * catalog promises) and shown not raised under the closest condition that must not raise it.
 * `assertEveryFlagRaised` fails when a catalog gains a flag that no test raises.
 */
import assert from 'node:assert/strict';
import type { ScanResult } from '../../src/contract/schemas.js';
import type { FlagCatalog } from '../../src/scans/risk/model.js';

/** What every result must satisfy, whatever the facts. */
export function assertResultInvariants(result: ScanResult): void {
  assert.ok(result.risk_score >= 0 && result.risk_score <= 1, `risk ${result.risk_score}`);
  assert.ok(result.confidence >= 0 && result.confidence <= 1, `confidence ${result.confidence}`);
  assert.match(result.summary, /\.$/, 'the summary ends as a sentence');
  assert.equal(result.summary.split(/[.!?]\s+\S/).length, 1, `one sentence: ${result.summary}`);
  assert.equal(new Set(result.flags).size, result.flags.length, 'no flag twice');
  assert.equal(result.reasoning.length >= result.flags.length, true, 'a reasoning line per flag');
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
      assert.ok(result.flags.includes(code), `${code} expected, got [${result.flags}]`);
      const found = (result.evidence as { flags?: Record<string, Record<string, unknown>> }).flags?.[code];
      assert.ok(found, `${code} has evidence`);
      for (const key of catalog[code]!.evidenceKeys) assert.ok(key in found, `${code} evidence lacks ${key}`);
      for (const [key, value] of Object.entries(evidence)) {
        assert.deepEqual(found[key], value, `${code} evidence ${key}`);
      }
      raised.add(code);
      return found;
    },
    notRaised(result: ScanResult, code: string): void {
      assertResultInvariants(result);
      assert.ok(!result.flags.includes(code), `${code} must not be raised: [${result.flags}]`);
    },
    assertEveryFlagRaised(): void {
      assert.deepEqual(
        [...raised].sort(),
        Object.keys(catalog).sort(),
        'every catalog flag has a raising test',
      );
    },
  };
}
