/**
 * A creator's earlier launch whose outcome cannot change, kept (src/scans/creator-history/launch-curves.ts):
 * the serial launcher's graduated coin is kept once its curve's newest transaction is finalized, with
 * that slot, and a later scan of another of its coins takes the outcome from the store instead of
 * reading the curve, same flags and score, its evidence saying so; its dead coins (which a buy could
 * still revive) are never kept. On a chain where nothing is finalized yet, nothing is kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { subject } from '../../src/sandbox/scenarios/index.js';
import { LAUNCH_OUTCOME_FACT } from '../../src/scans/creator-history/launch-curves.js';
import { scanPumpfun } from '../../src/scans/pumpfun/index.js';
import { decodeBondingCurve } from '../../src/solana/decoders/pump-bonding-curve.js';
import { createMemoryFactStore } from '../../src/state/facts/memory.js';
import { countedScan, type Sandbox, useSandbox } from '../helpers/counted-scans.js';

/** The serial launcher's coins (pumpfun:serial-latest names them), split by whether the curve completed. */
function serialLaunches(sandbox: Sandbox) {
  const { expect } = subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-latest');
  const { curves, mints } = expect.creatorLaunches!;
  const complete = (curve: string) => {
    const decoded = decodeBondingCurve(sandbox.chain.getAccount(curve)!.data());
    return decoded.ok && decoded.value.complete;
  };
  return {
    creator: expect.creator,
    graduated: curves.filter(complete),
    dead: curves.filter((c) => !complete(c)),
    latest: mints.at(-1)!,
    other: mints.at(-3)!,
  };
}

describe('a launch outcome that cannot change is kept', { timeout: 300_000 }, () => {
  const sandbox = useSandbox();

  it('the graduated launch is kept at a finalized slot; another coin of the creator does not read its curve again', async () => {
    const launches = serialLaunches(sandbox);
    assert.equal(launches.graduated.length, 1);
    const [graduated] = launches.graduated as [string];
    const facts = createMemoryFactStore();
    await countedScan(sandbox, scanPumpfun, launches.latest, facts);
    const kept = await facts.get(graduated, LAUNCH_OUTCOME_FACT);
    assert.ok(kept, 'the graduated launch is kept');
    assert.deepEqual(JSON.parse(kept.value), { outcome: 'graduated', creator: launches.creator });
    assert.ok(kept.slot <= Number(sandbox.chain.slot) - 32, `kept at slot ${kept.slot}, finalized`);
    for (const dead of launches.dead) assert.equal(await facts.get(dead, LAUNCH_OUTCOME_FACT), undefined);

    const fresh = await countedScan(sandbox, scanPumpfun, launches.other);
    const repeated = await countedScan(sandbox, scanPumpfun, launches.other, facts);
    assert.deepEqual(repeated.result.flags, fresh.result.flags);
    assert.equal(repeated.result.risk_score, fresh.result.risk_score);
    assert.ok(fresh.accountsAsked.has(graduated), 'with nothing kept its curve is read');
    assert.ok(!repeated.accountsAsked.has(graduated), 'with its outcome kept it is not');
    const history = repeated.evidence.creator_launches;
    assert.deepEqual(history.from_kept_facts, {
      graduated_launches: 1,
      read_at_slots: [kept.slot, kept.slot],
    });
    assert.equal(fresh.evidence.creator_launches.from_kept_facts, undefined);
    assert.deepEqual(history.list, fresh.evidence.creator_launches.list);
  });
});

describe('a launch outcome read at a slot not finalized is not kept', { timeout: 300_000 }, () => {
  // Every seeded transaction within the root distance: the curve's newest one only confirmed.
  const sandbox = useSandbox({ finalityDepth: 1_000_000_000 });

  it('the graduated launch is read again by the next scan, and nothing says it was kept', async () => {
    const launches = serialLaunches(sandbox);
    const facts = createMemoryFactStore();
    const first = await countedScan(sandbox, scanPumpfun, launches.latest, facts);
    for (const curve of [...launches.graduated, ...launches.dead])
      assert.equal(await facts.get(curve, LAUNCH_OUTCOME_FACT), undefined, curve);
    const again = await countedScan(sandbox, scanPumpfun, launches.other, facts);
    assert.ok(again.accountsAsked.has(launches.graduated[0]!));
    assert.equal(again.evidence.creator_launches.from_kept_facts, undefined);
    assert.ok(first.result.flags.includes('CREATOR_SERIAL_LAUNCHER'));
  });
});
