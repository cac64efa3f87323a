/**
 * simulateTransaction against the seeded sandbox, through the real RPC answering as the
 * `ideal` node, an `indexed-provider` and the public mainnet endpoint would: every simulation scenario of the manifest
 * raises exactly its flags, the plain USDC transfer reports exactly the amounts that move, and a
 * legacy transaction costs one round trip (its calls in parallel).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  getAddressDecoder,
  getAddressEncoder,
  type RpcTransport,
} from '@solana/kit';
import { getTransferCheckedInstruction } from '@solana-program/token';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import type { RpcProfileName } from '../../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, simulation } from '../../../src/sandbox/scenarios/index.js';
import { unsignedWireTransaction } from '../../../src/sandbox/unsigned.js';
import { USDC_MINT, usdcAccountOf } from '../../../src/sandbox/usdc.js';
import { simulateTransaction } from '../../../src/scans/simulate/index.js';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from '../../../src/solana/programs.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';

const PROFILES: RpcProfileName[] = ['ideal', 'indexed-provider', 'public-mainnet'];

/** A fresh address from a number (no key needed: nothing signs for it). */
const addressOf = (n: bigint): Address => {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setBigUint64(0, n + 0x5eedn, true);
  bytes[31] = 7;
  return getAddressDecoder().decode(bytes);
};

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
        'sim:v0-lookup-table',
      ],
    );
  });

  for (const profile of PROFILES) {
    it(`${profile}: each simulation scenario raises exactly its flags, in one round trip (two through a lookup table)`, async () => {
      for (const s of manifest.simulations) {
        const { result, roundTrips, calls } = await simulate(profile, s.transaction);
        assert.deepEqual(result.flags, s.expect.flags, `${s.name}: ${result.reasoning.join('; ')}`);
        const throughTable = s.name === 'sim:v0-lookup-table';
        assert.equal(roundTrips, throughTable ? 2 : 1, s.name);
        if (s.expect.tokenChanges !== undefined) {
          const changes = (result.evidence as any).token_changes.map(
            (t: any) => `${t.owner} ${t.mint} ${t.change}`,
          );
          const expected = s.expect.tokenChanges.map((t) => `${t.owner} ${t.mint} ${t.change}`);
          assert.deepEqual(changes.sort(), expected.sort(), s.name);
        }
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

  /** An active, frozen lookup table holding `addresses` (the program's own layout: 56-byte header). */
  function lookupTable(addresses: readonly Address[]): Address {
    const table = addressOf(chain.slot);
    const data = new Uint8Array(56 + 32 * addresses.length);
    const view = new DataView(data.buffer);
    view.setUint32(0, 1, true); // ProgramState::LookupTable
    view.setBigUint64(4, 0xffff_ffff_ffff_ffffn, true); // never deactivated
    for (const [i, a] of addresses.entries()) data.set(getAddressEncoder().encode(a), 56 + 32 * i);
    chain.setAccount({ address: table, lamports: 10_000_000n, data, owner: ADDRESS_LOOKUP_TABLE_PROGRAM });
    return table;
  }

  it('a v0 transaction: its lookup table is read first, then the same exact amounts (two round trips)', async () => {
    const s = simulation(manifest, 'sim:usdc-transfer');
    const [recipient] = s.expect.tokenChanges!.filter((c) => c.owner !== s.signer);
    const destination = await usdcAccountOf(recipient!.owner as Address);
    const source = await usdcAccountOf(s.signer as Address);
    const transfer = getTransferCheckedInstruction({
      source,
      mint: USDC_MINT,
      destination,
      authority: s.signer as Address,
      amount: 2_500_000n,
      decimals: 6,
    });
    const table = lookupTable([destination, USDC_MINT]);
    const v0 = unsignedWireTransaction(s.signer as Address, [transfer], {
      version: 0,
      lookupTables: { [table]: [destination, USDC_MINT] },
    });
    for (const profile of PROFILES) {
      const { result, roundTrips } = await simulate(profile, v0);
      const e = result.evidence as any;
      assert.equal(roundTrips, 2, profile);
      assert.equal(e.lookup_tables_resolved, true);
      assert.deepEqual(result.flags, []);
      assert.deepEqual(e.token_changes.map((t: any) => t.change).sort(), ['-2500000', '2500000']);
    }
    const missing = unsignedWireTransaction(s.signer as Address, [transfer], {
      version: 0,
      lookupTables: { [addressOf(1n)]: [destination, USDC_MINT] },
    });
    const { result } = await simulate('ideal', missing);
    assert.deepEqual(result.flags, ['SIM_WOULD_FAIL']);
    assert.match(result.reasoning[0]!, /AddressLookupTableNotFound/);
  });

  it('the accounts before and the simulation are read at one commitment', async () => {
    const configs: { method: string; config: Record<string, unknown> }[] = [];
    const inner = createDefaultRpcTransport({ url: servers.get('ideal')!.url });
    const recording: RpcTransport = (request) => {
      const payload = request.payload as { method: string; params: unknown[] };
      configs.push({ method: payload.method, config: payload.params.at(-1) as Record<string, unknown> });
      return inner(request);
    };
    const s = simulation(manifest, 'sim:usdc-transfer');
    await simulateTransaction(s.transaction, { rpc: createSolanaRpcFromTransport(recording), now: Date.now });
    assert.ok(configs.length >= 2);
    for (const { method, config } of configs) assert.equal(config.commitment, 'confirmed', method);
  });

  it('the chain is untouched: a simulation is never sent', async () => {
    const s = simulation(manifest, 'sim:approve-drain');
    const { result: first } = await simulate('ideal', s.transaction);
    const { result: again } = await simulate('ideal', s.transaction);
    assert.deepEqual(again.flags, first.flags);
  });
});
