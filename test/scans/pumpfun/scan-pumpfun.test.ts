/** /scan/pumpfun on the seeded pump.fun curves, pools and serial creator, and on real mainnet pump mints. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, seededChain, subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import { countingTransport, failingTransport } from '../../helpers/rpc-transports.js';

describe('scanPumpfun on the seeded sandbox', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: ScenarioManifest;
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  const scan = async (mint: string, wrap = (t: ReturnType<typeof createDefaultRpcTransport>) => t) => {
    const counter = countingTransport(wrap(createDefaultRpcTransport({ url: server.url })));
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

  it('an active curve: progress from the decoded reserves, the curve excluded from concentration, two round trips', async () => {
    const s = subject(manifest, 'pumpfun', 'pumpfun:curve-active');
    const { result, roundTrips, calls, evidence } = await scan(s.address);
    assert.ok(roundTrips <= 2, `${roundTrips} round trips`);
    assert.equal(
      calls.filter((c) => c === 'getProgramAccounts').length,
      1,
      'one getProgramAccounts for the creator history',
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
    const s = subject(manifest, 'pumpfun', 'pumpfun:graduated');
    const { evidence } = await scan(s.address);
    assert.equal(evidence.curve_complete, true);
    assert.equal(evidence.graduated, true);
    assert.equal(evidence.pool, s.expect.pool?.address);
  });

  it("the serial creator's coin: every launch counted, CREATOR_SERIAL_LAUNCHER raised", async () => {
    const s = subject(manifest, 'pumpfun', 'pumpfun:serial-latest');
    const creator = subject(manifest, 'wallet', 'wallet:pump-serial-creator');
    const { result, evidence } = await scan(s.address);
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    const flag = evidence.flags.CREATOR_SERIAL_LAUNCHER;
    assert.equal(flag.launches, creator.expect.pumpLaunches?.curves.length);
    assert.equal(flag.graduated, creator.expect.pumpLaunches?.complete);
    assert.equal(flag.dead, creator.expect.pumpLaunches?.incomplete);
    const active = await scan(subject(manifest, 'pumpfun', 'pumpfun:curve-active').address);
    assert.ok(result.risk_score > active.result.risk_score);
  });

  it('a non-pump token is NOT_PUMPFUN_MINT, and still gets the token checks', async () => {
    const { result } = await scan(subject(manifest, 'token', 'token:authorities-live').address);
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
    const s = subject(manifest, 'pumpfun', 'pumpfun:serial-latest');
    const blind = await scan(s.address, (t) => failingTransport(t, (m) => m === 'getProgramAccounts'));
    assert.ok(blind.result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'));
    assert.ok(blind.result.confidence < 1);
  });
});
