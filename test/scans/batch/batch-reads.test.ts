/**
 * A batch of up to 25 read like one scan, against the seeded sandbox: each item equals its single
 * scan in flags and score; the batch takes at most one round trip more than the deepest single
 * scan (round trips counted as waves, test/helpers/wave-transport.ts, so neither timing nor load
 * counts); its account reads travel merged, its epoch is read once, and it sends fewer calls than
 * the single scans of the same subjects: at most 40 % of them for related launches (one creator's
 * coins, coins one ring sniped), whose traces are shared. (The figures: BENCH_ONLY=batch.)
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

const KINDS: readonly { endpoint: ScanId; kinds: readonly string[]; set: 'unrelated' | 'related' }[] = [
  // Every mint is a token: the pump.fun coins fill the batch of tokens up to 25.
  { endpoint: 'token', kinds: ['token', 'pumpfun'], set: 'unrelated' },
  { endpoint: 'pumpfun', kinds: ['pumpfun'], set: 'unrelated' },
  { endpoint: 'wallet', kinds: ['wallet'], set: 'unrelated' },
  // New launches as an agent screening them meets them: one creator's coins, coins one ring sniped.
  { endpoint: 'token', kinds: ['pumpfun'], set: 'related' },
  { endpoint: 'pumpfun', kinds: ['pumpfun'], set: 'related' },
];

const accountReads = (calls: readonly string[]) =>
  calls.filter((c) => c === 'getMultipleAccounts' || c === 'getAccountInfo').length;
const count = (calls: readonly string[], method: string) => calls.filter((c) => c === method).length;

for (const { endpoint, kinds, set } of KINDS) {
  describe(`a batch of ${endpoint} scans of ${set} subjects`, () => {
    it('equals its single scans, in the round trips of one scan plus one, for fewer calls', async (t) => {
      const subjects = subjectsOf(sandbox.manifest, kinds, 25, set);
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
      if (set === 'related') {
        // Related launches share holders, funders and a creator: their traces are read once.
        const share = together.calls.length / alone.calls.length;
        assert.ok(
          share <= 0.4,
          `calls per subject batched are ${(share * 100).toFixed(1)} % of a single scan's`,
        );
      }
      // Account reads of a step merged: full reads of 100 keys, but for one part-filled read a step.
      const merged = Math.ceil(together.accountKeys / 100) + together.roundTrips;
      assert.ok(accountReads(together.calls) <= merged, `${accountReads(together.calls)} account reads`);
      assert.ok(together.accountKeys <= alone.accountKeys, 'no account read twice');
      assert.ok(count(together.calls, 'getEpochInfo') <= 1, 'the epoch read once for the batch');
    });
  });
}
