/**
 * Facts kept across scans the way a customer meets them: `risk-scan sandbox`'s own start-up, the
 * official x402 client and real HTTP. A paid scan of one coin keeps its creator's finalized
 * transactions; a paid scan of another coin of the same creator is served them, says so in its
 * evidence, and raises the flags a scan reading everything raises.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

describe('facts kept across paid scans', () => {
  const paid = usePaidScenarioSandbox('indexed-provider');

  it('another coin of the same creator: its creator’s transactions come from the kept facts', async () => {
    const newest = paid.find('pumpfun:dumper-latest');
    const other = newest.expect.creatorLaunches!.mints.at(-3)!;
    const first = await paid.scan('pumpfun', newest.address);
    assert.equal(first.evidence.creator_launches.sources.transactions.from_kept_facts, undefined);
    paid.heldToManifest(newest, first);
    const second = await paid.scan('pumpfun', other);
    const kept = second.evidence.creator_launches.sources.transactions.from_kept_facts;
    assert.ok(kept?.transactions > 0, JSON.stringify(second.evidence.creator_launches.sources));
    // The dumper's coins all died alike: the same verdict on its history as the newest coin's.
    for (const code of ['CREATOR_SERIAL_LAUNCHER'])
      assert.ok(second.flags.includes(code), String(second.flags));
    assert.equal(second.evidence.creator_launches.launches, first.evidence.creator_launches.launches);
  });
});
