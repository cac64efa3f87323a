/**
 * A batch of up to 25 read like one scan, against the seeded sandbox: each item equals its single
 * scan in flags and score; the batch takes at most one round trip more than the deepest single
 * scan (round trips counted as waves, test/helpers/wave-transport.ts, so neither timing nor load
 * counts); its account reads travel merged, its epoch is read once, and it sends fewer calls than
 * the single scans of the same subjects. (How many fewer is the bench's: BENCH_ONLY=batch.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScanId } from '../../../src/catalog.js';
import {
  byMethod,
  measureBatch,
  measureSingles,
  subjectsOf,
  verdictOf,
} from '../../helpers/batch-measure.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

const sandbox = useSeededSandbox({ name: 'ideal', rateLimit: null });
const NOW = Date.now();

const KINDS: readonly { endpoint: ScanId; kinds: readonly string[] }[] = [
  // Every mint is a token: the pump.fun coins fill the batch of tokens up to 25.
  { endpoint: 'token', kinds: ['token', 'pumpfun'] },
  { endpoint: 'pumpfun', kinds: ['pumpfun'] },
  { endpoint: 'wallet', kinds: ['wallet'] },
];

const accountReads = (calls: readonly string[]) =>
  calls.filter((c) => c === 'getMultipleAccounts' || c === 'getAccountInfo').length;
const count = (calls: readonly string[], method: string) => calls.filter((c) => c === method).length;

for (const { endpoint, kinds } of KINDS) {
  describe(`a batch of ${endpoint} scans`, () => {
    it('equals its single scans, in the round trips of one scan plus one, for fewer calls', async (t) => {
      const subjects = subjectsOf(sandbox.manifest, kinds, 25);
      assert.ok(subjects.length >= 4, `the manifest has ${subjects.length} ${endpoint} subjects`);
      const url = sandbox.server.url;
      const alone = await measureSingles(url, endpoint, subjects, () => NOW);
      const together = await measureBatch(url, endpoint, subjects, () => NOW);
      t.diagnostic(
        `${subjects.length} subjects: calls ${alone.calls.length} alone, ${together.calls.length} batched; ` +
          `round trips ${alone.roundTrips} (deepest single), ${together.roundTrips} batched; ` +
          `by method alone ${JSON.stringify(byMethod(alone.calls))}, batched ${JSON.stringify(byMethod(together.calls))}`,
      );
      assert.deepEqual(together.results.map(verdictOf), alone.results.map(verdictOf));
      assert.ok(
        together.roundTrips <= alone.roundTrips + 1,
        `${together.roundTrips} round trips batched, the deepest single scan ${alone.roundTrips}`,
      );
      assert.ok(together.calls.length < alone.calls.length, 'fewer calls than the single scans');
      // Account reads of a step merged: full reads of 100 keys, but for one part-filled read a step.
      const merged = Math.ceil(together.accountKeys / 100) + together.roundTrips;
      assert.ok(accountReads(together.calls) <= merged, `${accountReads(together.calls)} account reads`);
      assert.ok(together.accountKeys <= alone.accountKeys, 'no account read twice');
      assert.ok(count(together.calls, 'getEpochInfo') <= 1, 'the epoch read once for the batch');
    });
  });
}
