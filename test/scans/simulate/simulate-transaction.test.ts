/**
 * simulateTransaction against the seeded sandbox, through the real RPC answering as the
 * `ideal` node and as an `indexed-provider` would: every simulation scenario of the manifest
 * raises exactly its flags, the plain USDC transfer reports exactly the amounts that move, and a
 * legacy transaction costs one round trip (three calls in parallel).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import type { RpcProfileName } from '../../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, seededChain, simulation } from '../../../src/sandbox/scenarios/index.js';
import { simulateTransaction } from '../../../src/scans/simulate/index.js';
import { countingTransport } from '../../helpers/rpc-transports.js';

const PROFILES: RpcProfileName[] = ['ideal', 'indexed-provider'];

describe('simulateTransaction on the seeded sandbox', { timeout: 120_000 }, () => {
  let chain: SandboxChain;
  let manifest: ScenarioManifest;
  const servers = new Map<RpcProfileName, SandboxRpc>();
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    for (const name of PROFILES) {
      servers.set(
        name,
        await startSandboxRpc({ chain, host: '127.0.0.1', port: 0, profile: { name, rateLimit: null } }),
      );
    }
  });
  after(async () => {
    chain.stop();
    await Promise.all([...servers.values()].map((s) => s.close()));
  });

  const simulate = async (profile: RpcProfileName, transaction: string) => {
    const counter = countingTransport(createDefaultRpcTransport({ url: servers.get(profile)!.url }));
    const { result } = await simulateTransaction(transaction, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, roundTrips: counter.roundTrips(), calls: counter.calls };
  };

  it('the manifest lists a plain transfer and the drains', () => {
    assert.deepEqual(
      manifest.simulations.map((s) => s.name),
      [
        'sim:usdc-transfer',
        'sim:approve-drain',
        'sim:owner-change',
        'sim:system-assign',
        'sim:close-to-third-party',
      ],
    );
  });

  for (const profile of PROFILES) {
    it(`${profile}: each simulation scenario raises exactly its flags, in one round trip`, async () => {
      for (const s of manifest.simulations) {
        const { result, roundTrips, calls } = await simulate(profile, s.transaction);
        assert.deepEqual(result.flags, s.expect.flags, `${s.name}: ${result.reasoning.join('; ')}`);
        assert.equal(roundTrips, 1, s.name);
        // The accounts before and the simulation; ProgramData headers only when an unknown program is named.
        assert.deepEqual([...new Set(calls)].sort(), ['getMultipleAccounts', 'simulateTransaction'], s.name);
        if (s.expect.attacker !== undefined) {
          assert.ok(
            JSON.stringify((result.evidence as any).flags).includes(s.expect.attacker),
            `${s.name} names the attacker`,
          );
          assert.ok(result.risk_score >= 0.3, `${s.name}: risk ${result.risk_score}`);
        }
      }
    });

    it(`${profile}: a plain USDC transfer reports exactly the amounts that move, and the fee`, async () => {
      const s = simulation(manifest, 'sim:usdc-transfer');
      const { result } = await simulate(profile, s.transaction);
      const e = result.evidence as any;
      assert.equal(e.success, true);
      assert.deepEqual(
        e.token_changes
          .map((t: any) => ({ owner: t.owner, mint: t.mint, change: t.change }))
          .sort((a: any, b: any) => a.change.localeCompare(b.change)),
        [...s.expect.tokenChanges!].sort((a, b) => a.change.localeCompare(b.change)),
      );
      assert.ok(e.token_changes.every((t: any) => t.decimals === 6));
      const [payer] = e.signers;
      assert.equal(payer.address, s.signer);
      assert.equal(payer.change, `-${e.fee_lamports}`);
      assert.equal(payer.change_excluding_fee, '0');
      assert.equal(e.slots.pre, e.slots.simulated, 'before and after at one slot');
      assert.equal(result.risk_score, 0);
    });
  }

  it('the chain is untouched: a simulation is never sent', async () => {
    const s = simulation(manifest, 'sim:approve-drain');
    const { result: first } = await simulate('ideal', s.transaction);
    const { result: again } = await simulate('ideal', s.transaction);
    assert.deepEqual(again.flags, first.flags);
  });
});
