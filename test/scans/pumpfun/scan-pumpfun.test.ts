/** /scan/pumpfun on the seeded pump.fun curves, pools and serial creator, and on real mainnet pump mints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  address,
  createDefaultRpcTransport,
  createSolanaRpc,
  createSolanaRpcFromTransport,
} from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import {
  countingTransport,
  delayedTransport,
  failingTransport,
  holdingTransport,
} from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

describe('scanPumpfun on the seeded sandbox', () => {
  const sandbox = useSeededSandbox();

  const scan = async (mint: string, wrap = (t: ReturnType<typeof createDefaultRpcTransport>) => t) => {
    const counter = countingTransport(wrap(createDefaultRpcTransport({ url: sandbox.server.url })));
    const { result } = await scanPumpfun(mint, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return {
      result,
      roundTrips: counter.roundTrips(),
      calls: counter.calls,
      evidence: result.evidence as any,
    };
  };

  it('an active curve: progress from the decoded reserves, the curve excluded from concentration, at most three round trips', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:curve-active');
    const { result, roundTrips, calls, evidence } = await scan(s.address);
    assert.ok(roundTrips <= 3, `${roundTrips} round trips`);
    assert.ok(!calls.includes('getProgramAccounts'), `no getProgramAccounts: ${calls}`);
    assert.equal(
      calls.filter((c) => c === 'getTokenAccountsByOwner').length,
      2,
      "the creator's token accounts, under SPL Token and Token-2022",
    );
    assert.equal(Math.round(evidence.curve_progress * 10_000), s.expect.progressBps);
    assert.equal(evidence.curve_complete, false);
    assert.equal(evidence.graduated, false);
    assert.equal(evidence.creator, s.expect.creator);
    assert.ok(
      evidence.excluded.some((e: { owner: string }) => e.owner === s.expect.bondingCurve),
      'curve tokens set aside',
    );
    assert.ok(
      !result.flags.includes('MINT_AUTHORITY_ACTIVE') && !result.flags.includes('NOT_PUMPFUN_MINT'),
      String(result.flags),
    );
  });

  it('a graduated coin: complete curve and its PumpSwap pool found', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:graduated');
    const { evidence } = await scan(s.address);
    assert.equal(evidence.curve_complete, true);
    assert.equal(evidence.graduated, true);
    assert.equal(evidence.pool, s.expect.pool?.address);
  });

  it('round 3 (the launches’ curves, the pools) leaves without waiting for the launch’s transactions, whose findings still reach the result', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:launch-bundled');
    // The launch's transactions are the first getTransaction calls (round 2): those in the mint's
    // first four slots, 10 at most. The creator's history reads its own in round 3, and waits for them.
    const page = await createSolanaRpc(sandbox.server.url).getSignaturesForAddress(address(s.address)).send();
    const firstSlot = Math.min(...page.map((e) => Number(e.slot)));
    const inWindow = page.filter((e) => e.err === null && Number(e.slot) <= firstSlot + 3).length;
    let sent = 0;
    const hold = holdingTransport(
      createDefaultRpcTransport({ url: sandbox.server.url }),
      (m) => m === 'getTransaction' && ++sent <= Math.min(inWindow, 10),
    );
    const { result } = await scanPumpfun(s.address, {
      rpc: createSolanaRpcFromTransport(hold.transport),
      now: Date.now,
    });
    assert.equal(hold.releasedBy(), 'a later round');
    assert.ok(result.flags.includes('LAUNCH_BUNDLED'), String(result.flags));
  });

  it("the serial creator's coin: every launch found through its token accounts, CREATOR_SERIAL_LAUNCHER raised, in three round trips", async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-latest');
    const creator = subject(sandbox.manifest, 'wallet', 'wallet:pump-serial-creator');
    const { result, evidence, roundTrips, calls } = await scan(s.address);
    assert.ok(roundTrips <= 3, `${roundTrips} round trips`);
    assert.ok(!calls.includes('getProgramAccounts'), `no getProgramAccounts: ${calls}`);
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    assert.ok(!result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(result.flags));
    const flag = evidence.flags.CREATOR_SERIAL_LAUNCHER;
    assert.equal(flag.launches, creator.expect.pumpLaunches?.curves.length);
    assert.equal(flag.graduated, creator.expect.pumpLaunches?.complete);
    assert.equal(flag.dead, creator.expect.pumpLaunches?.incomplete);
    const history = evidence.creator_launches;
    assert.equal(history.launches_found_via, 'creator token accounts');
    assert.equal(history.holds_this_coin, true);
    // Its ~40 transactions are more than one scan reads (the bound): coins whose token account it
    // closed cannot be ruled out, so the list is not claimed complete (the flag stands on what was found).
    assert.equal(history.list_complete, false);
    assert.ok(history.sources.transactions.cut > 0);
    assert.match(history.missed, /closed/);
    assert.deepEqual(
      history.list.map((l: { mint: string }) => l.mint).sort(),
      [...(s.expect.creatorLaunches?.mints ?? [])].sort(),
    );
    assert.equal(history.list[0].mint, s.address, 'this coin first');
    const active = await scan(subject(sandbox.manifest, 'pumpfun', 'pumpfun:curve-active').address);
    assert.ok(result.risk_score > active.result.risk_score);
  });

  it('three sequential round trips: with every call delayed, the calls fall into three rounds', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-latest');
    const DELAY = 400;
    const started = performance.now();
    const { result, roundTrips } = await scan(s.address, (t) => delayedTransport(t, DELAY));
    const elapsed = performance.now() - started;
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    assert.equal(roundTrips, 3);
    // Only the safe direction of time is asserted: three delays at least, one after another.
    assert.ok(elapsed >= 3 * DELAY, `${Math.round(elapsed)} ms`);
  });

  it("a dumper's coin: twelve earlier coins, all dead, and this one", async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:dumper-latest');
    const { result, evidence, roundTrips } = await scan(s.address);
    assert.ok(roundTrips <= 3, `${roundTrips} round trips`);
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    const { weight_applied: _, ...flag } = evidence.flags.CREATOR_SERIAL_LAUNCHER;
    assert.deepEqual(flag, {
      creator: s.expect.creator,
      launches: 13,
      dead: 13,
      graduated: 0,
    });
    assert.equal(s.expect.creatorLaunches?.incomplete, 13);
    assert.deepEqual(
      evidence.creator_launches.list.map((l: { mint: string; state: string }) => [l.mint, l.state]).sort(),
      (s.expect.creatorLaunches?.mints ?? []).map((m) => [m, 'dead']).sort(),
    );
  });

  it('a one-coin creator: its own coin is its one launch, and the history is complete', async () => {
    // The serial creator holds its own nine coins; the graduated coin's creator only its one.
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:graduated');
    const { evidence, result } = await scan(s.address);
    assert.equal(evidence.creator_launches.launches, 1);
    assert.equal(evidence.creator_launches.holds_this_coin, true);
    assert.ok(!result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(result.flags));
  });

  it('a non-pump token is NOT_PUMPFUN_MINT, and still gets the token checks', async () => {
    const { result } = await scan(subject(sandbox.manifest, 'token', 'token:authorities-live').address);
    assert.ok(result.flags.includes('NOT_PUMPFUN_MINT'));
    assert.ok(result.flags.includes('MINT_AUTHORITY_ACTIVE'));
    assert.ok(result.risk_score >= 0.6);
  });

  it('real mainnet create_v2 mints and curves: no false authority flags, progress matches the reserves', async () => {
    const { result, evidence } = await scan('Fw5xoxp3JYrW1ELUCQ98t3MvRiMKSFk7WBEsMs8Gpump');
    assert.ok(
      !result.flags.includes('MINT_AUTHORITY_ACTIVE') && !result.flags.includes('FREEZE_AUTHORITY_ACTIVE'),
    );
    assert.ok(!result.flags.includes('NOT_PUMPFUN_MINT'), String(result.flags));
    const sold = 793_100_000_000_000n - BigInt(evidence.real_token_reserves);
    assert.equal(evidence.curve_progress, Math.round((Number(sold) / 793_100_000_000_000) * 10_000) / 10_000);
    assert.equal(evidence.creator, '89YMNptpZLBo21N8uzPXCQ2M4QrpimfDhJGvibyR9fpW');
  });

  it('a creator history that cannot be read lowers confidence, never the score', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-latest');
    const known = await scan(s.address);
    for (const method of ['getTokenAccountsByOwner', 'getMultipleAccounts']) {
      // getMultipleAccounts fails everywhere but the first round (the mint itself must be read).
      let reads = 0;
      // The creator's own transactions find the launches too: they fail with the token accounts.
      const alsoFails = method === 'getTokenAccountsByOwner' ? 'getSignaturesForAddress' : method;
      const blind = await scan(s.address, (t) =>
        failingTransport(
          t,
          (m) => (m === method || m === alsoFails) && (m !== 'getMultipleAccounts' || ++reads > 2),
        ),
      );
      assert.ok(
        blind.result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'),
        `${method}: ${blind.result.flags}`,
      );
      assert.ok(!blind.result.flags.includes('CREATOR_SERIAL_LAUNCHER'), method);
      assert.ok(blind.result.confidence < known.result.confidence, method);
    }
  });

  it('a creator with no token account of its coin: the history is marked incomplete, confidence drops', async () => {
    // A real mainnet coin whose creator has no accounts in the sandbox: as if it had closed them.
    const { result, evidence } = await scan('Fw5xoxp3JYrW1ELUCQ98t3MvRiMKSFk7WBEsMs8Gpump');
    assert.ok(result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(result.flags));
    assert.match(evidence.flags.CREATOR_HISTORY_UNAVAILABLE.reason, /no token account of this coin/);
    assert.equal(evidence.creator_launches.holds_this_coin, false);
    assert.equal(evidence.creator_launches.list_complete, false);
    assert.equal(evidence.creator_launches.launches, 1);
  });
});
