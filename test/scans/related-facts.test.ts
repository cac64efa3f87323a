/**
 * The fact store on the sandbox's related-launches cluster (src/sandbox/scenarios/related-launches.ts),
 * every RPC call counted by method: a second scan of a related subject — another coin of the same
 * creator, a coin sharing its holders — sends fewer calls than the same scan with nothing kept, with
 * the same flags and score. Without a store (or with one that keeps nothing) the counts are equal,
 * so each assertion fails on a scan that does not consult it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { subject } from '../../src/sandbox/scenarios/index.js';
import { ringName, serialName } from '../../src/sandbox/scenarios/related-launches.js';
import { scanPumpfun } from '../../src/scans/pumpfun/index.js';
import { scanToken } from '../../src/scans/token/index.js';
import { createMemoryFactStore } from '../../src/state/facts/memory.js';
import { countedScan, type Sandbox, useSandbox } from '../helpers/counted-scans.js';

type Scanned = Awaited<ReturnType<typeof countedScan>>;
const mintOf = (sandbox: Sandbox, name: string) => subject(sandbox.manifest, 'pumpfun', name).address;

/** Scans `first` with a fresh store, then `second` with nothing kept and with what the first kept. */
async function firstThenRelated(
  sandbox: Sandbox,
  scanner: typeof scanPumpfun,
  first: string,
  second: string,
) {
  const facts = createMemoryFactStore();
  const primed = await countedScan(sandbox, scanner, first, facts);
  const fresh = await countedScan(sandbox, scanner, second);
  const repeated = await countedScan(sandbox, scanner, second, facts);
  return { primed, fresh, repeated };
}

const table = (fresh: Scanned, repeated: Scanned) =>
  `nothing kept ${JSON.stringify(fresh.methods)}; with the first scan's facts ${JSON.stringify(repeated.methods)}`;

function sameAnswer(fresh: Scanned, repeated: Scanned) {
  assert.deepEqual(repeated.result.flags, fresh.result.flags);
  assert.equal(repeated.result.risk_score, fresh.result.risk_score);
}

describe('facts kept: a second scan of a related subject sends fewer calls', { timeout: 300_000 }, () => {
  const sandbox = useSandbox();

  for (const [endpoint, scanner] of [
    ['pumpfun', scanPumpfun],
    ['token', scanToken],
  ] as const) {
    it(`/scan/${endpoint}: another coin of the same serial creator reads fewer of the creator's transactions`, async () => {
      const [first, second] = [mintOf(sandbox, serialName(9)), mintOf(sandbox, serialName(3))];
      const { fresh, repeated } = await firstThenRelated(sandbox, scanner, first, second);
      sameAnswer(fresh, repeated);
      assert.ok(repeated.calls < fresh.calls, table(fresh, repeated));
      assert.ok(
        repeated.byMethod('getTransaction') < fresh.byMethod('getTransaction'),
        table(fresh, repeated),
      );
      const history = repeated.evidence.creator_launches.sources.transactions;
      assert.ok(history.from_kept_facts.transactions > 0, JSON.stringify(history));
      assert.equal(repeated.evidence.creator_launches.launches, fresh.evidence.creator_launches.launches);
    });

    it(`/scan/${endpoint}: a coin sharing its holders reads neither their funders' pages nor the fundings again`, async () => {
      const [first, second] = [mintOf(sandbox, ringName(0)), mintOf(sandbox, ringName(7))];
      const { primed, fresh, repeated } = await firstThenRelated(sandbox, scanner, first, second);
      sameAnswer(fresh, repeated);
      const ring = subject(sandbox.manifest, 'pumpfun', ringName(7)).expect.related!;
      // The two ring funders: their own pages (hop 2) are not read again, nor the two transfers that funded the six.
      assert.equal(
        fresh.byMethod('getSignaturesForAddress') - repeated.byMethod('getSignaturesForAddress'),
        ring.sniperFunders.length,
        table(fresh, repeated),
      );
      assert.ok(
        fresh.byMethod('getTransaction') - repeated.byMethod('getTransaction') >= ring.sniperFunders.length,
        table(fresh, repeated),
      );
      assert.ok(repeated.calls < fresh.calls, table(fresh, repeated));
      assert.equal(primed.evidence.insiders.from_kept_facts, undefined);
      const kept = repeated.evidence.insiders.from_kept_facts;
      // Each funder's first funding served (once per trace that met it: the holders', the launch buyers').
      assert.ok(kept.first_fundings >= ring.sniperFunders.length, JSON.stringify(kept));
      assert.deepEqual(repeated.evidence.insiders.clusters, fresh.evidence.insiders.clusters);
    });
  }
});
