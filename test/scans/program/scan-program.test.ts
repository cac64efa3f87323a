/**
 * /scan/program on the seeded sandbox (programs deployed, upgraded and handed over with real
 * loader transactions) and on real mainnet ProgramData dumps, in at most two round trips.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanProgram } from '../../../src/scans/program/index.js';
import { countingTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

describe('scanProgram on the seeded sandbox', () => {
  const sandbox = useSeededSandbox();

  const scan = async (id: string, wrap = (t: ReturnType<typeof createDefaultRpcTransport>) => t) => {
    const counter = countingTransport(wrap(createDefaultRpcTransport({ url: sandbox.server.url })));
    const { result } = await scanProgram(id, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, roundTrips: counter.roundTrips(), evidence: result.evidence as any };
  };

  it('immutable program: PROGRAM_IMMUTABLE, no authority, low risk (giving the authority up is no risk)', async () => {
    const s = subject(sandbox.manifest, 'program', 'program:immutable');
    const { result, roundTrips, evidence } = await scan(s.address);
    assert.ok(roundTrips <= 2, `${roundTrips} round trips`);
    assert.ok(result.flags.includes('PROGRAM_IMMUTABLE'));
    assert.equal(evidence.upgrade_authority, null);
    assert.equal(evidence.last_deploy_slot, s.expect.lastDeploySlot);
    assert.ok(result.risk_score < 0.2, `risk ${result.risk_score}`);
  });

  it('single-key authority upgraded hours ago: SINGLE_KEY and RECENTLY_UPGRADED (medium) with the deploy slot and time', async () => {
    const s = subject(sandbox.manifest, 'program', 'program:single-key');
    const { result, roundTrips, evidence } = await scan(s.address);
    assert.ok(roundTrips <= 2, `${roundTrips} round trips`);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_SINGLE_KEY'));
    assert.equal(evidence.flags.UPGRADE_AUTHORITY_SINGLE_KEY.upgrade_authority, s.expect.upgradeAuthority);
    assert.ok(result.flags.includes('RECENTLY_UPGRADED'));
    assert.equal(evidence.flags.RECENTLY_UPGRADED.last_deploy_slot, s.expect.lastDeploySlot);
    const last = s.expect.deployments.at(-1)!;
    const lastTime = sandbox.chain.transaction(last.signature)!.blockTime;
    assert.equal(
      evidence.flags.RECENTLY_UPGRADED.last_deploy_time,
      new Date(Number(lastTime) * 1000).toISOString(),
    );
    const hours = evidence.flags.RECENTLY_UPGRADED.hours_since;
    assert.ok(Math.abs(hours - (Date.now() / 1000 - Number(lastTime)) / 3600) < 0.2, `${hours} hours`);
    assert.ok(hours < 24);
    assert.ok(evidence.flags.RECENTLY_UPGRADED.weight_applied >= 0.3, 'under 24 hours weighs as medium');
    const upgrades = s.expect.deployments.filter((d) => d.kind === 'upgrade').length;
    assert.ok(
      result.reasoning.some((r) => r.startsWith(`${upgrades} upgrade(s)`)),
      result.reasoning.join('\n'),
    );
  });

  it('multisig authority: UPGRADE_AUTHORITY_MULTISIG with threshold and voters, lower risk than a single key', async () => {
    const s = subject(sandbox.manifest, 'program', 'program:multisig');
    const single = subject(sandbox.manifest, 'program', 'program:single-key');
    const { result, evidence } = await scan(s.address);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'));
    assert.equal(evidence.flags.UPGRADE_AUTHORITY_MULTISIG.threshold, s.expect.multisig?.threshold);
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_SINGLE_KEY'));
    assert.ok(result.risk_score < (await scan(single.address)).result.risk_score);
  });

  it('a wallet is not a program: NOT_A_PROGRAM as an answer', async () => {
    const wallet = subject(sandbox.manifest, 'wallet', 'wallet:old-active');
    const { result } = await scan(wallet.address);
    assert.deepEqual(result.flags, ['NOT_A_PROGRAM']);
    assert.ok(result.risk_score >= 0.5);
  });

  it('real mainnet programs: deploy slot and authority decoded; keypair vs program-controlled authority', async () => {
    const stakedex = await scan('stkitrT1Uoy18Dk1fTrgPw8W6MVzoCfYoAFT4MLsmhq');
    assert.equal(stakedex.evidence.last_deploy_slot, '257414016');
    assert.equal(stakedex.evidence.upgrade_authority, 'HanXbAh9AngpUuzxJVH3FoQ9mEu3qPHQ62u6JtuoR7VS');
    assert.ok(stakedex.result.flags.includes('UPGRADE_AUTHORITY_SINGLE_KEY'));
    const marinade = await scan('MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD');
    assert.equal(marinade.evidence.last_deploy_slot, '229946024');
    assert.equal(marinade.evidence.authority_kind, 'pda');
    // Its authority is the signer of a Coral multisig loaded from the dumps (governed-authority.test.ts).
    assert.ok(marinade.result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(marinade.result.flags));
    assert.ok(!marinade.result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    assert.ok(!marinade.result.flags.includes('RECENTLY_UPGRADED'), 'deployed long ago');
  });

  it('an unreadable history lowers confidence but never the score', async () => {
    const s = subject(sandbox.manifest, 'program', 'program:single-key');
    const full = await scan(s.address);
    const blind = await scan(s.address, (t) => failingTransport(t, (m) => m === 'getSignaturesForAddress'));
    assert.ok(blind.result.flags.includes('HISTORY_UNAVAILABLE'));
    assert.ok(blind.result.confidence < full.result.confidence);
    assert.ok(
      blind.result.risk_score >= full.result.risk_score - 0.35,
      'only the history-derived flags are missing',
    );
    assert.ok(blind.result.flags.includes('UPGRADE_AUTHORITY_SINGLE_KEY'));
  });
});
