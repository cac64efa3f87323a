/**
 * /scan/token on the seeded Meteora subjects (a DAMM v2 customizable pool and a DAMM v1 pool in
 * Meteora's dynamic vaults, real layouts and owner programs, at the addresses Meteora derives):
 * each raises what its manifest entry says and nothing it rules out, under the ideal RPC and the
 * indexed provider; the pools are located, their depth shown, within the round trips stated.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

const SUBJECTS = ['token:pool-meteora-damm-v2', 'token:pool-meteora-damm-v1'];

describe('scanToken: Meteora DAMM pools on the seeded sandbox', () => {
  const sandbox = useSeededSandbox('ideal', 'indexed-provider');

  async function scan(name: string, profile = 'ideal') {
    const counter = countingTransport(createDefaultRpcTransport({ url: sandbox.servers[profile]!.url }));
    const s = subject(sandbox.manifest, 'token', name);
    const { result } = await scanToken(s.address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { s, result, evidence: result.evidence as any, roundTrips: counter.roundTrips() };
  }

  for (const profile of ['ideal', 'indexed-provider']) {
    for (const name of SUBJECTS) {
      it(`${name} (${profile}): raises what its sandbox.manifest entry says, and nothing it rules out`, async () => {
        const { s, result } = await scan(name, profile);
        for (const code of s.expect.flags ?? [])
          assert.ok(result.flags.includes(code), `${code} in [${result.flags}]`);
        for (const code of s.expect.notFlags ?? [])
          assert.ok(!result.flags.includes(code), `${code} not in [${result.flags}]`);
      });
    }
  }

  it('DAMM v2: the customizable pool is located (its vaults alone name no pool), 100 SOL deep, in three round trips', async () => {
    const { s, evidence, roundTrips } = await scan('token:pool-meteora-damm-v2');
    const market = s.expect.market!;
    assert.equal(evidence.markets.length, 1);
    assert.equal(evidence.markets[0].dex, 'Meteora DAMM v2');
    assert.equal(evidence.markets[0].pool, market.pool);
    assert.equal(evidence.markets[0].quote_depth, 100);
    assert.deepEqual(evidence.unlocated_markets, []);
    assert.deepEqual(
      evidence.excluded.map((e: { token_account: string; why: string }) => [e.token_account, e.why]),
      [[market.baseVault, `pool vault: Meteora DAMM v2 pool ${market.pool}`]],
    );
    assert.equal(
      roundTrips,
      3,
      'its vault among the holders: the pool and its quote vault are read in round 3',
    );
  });

  it("DAMM v1: 50 SOL, its share of the shared wSOL vault's 1,000; the creator holding the LP is named", async () => {
    const { s, evidence, roundTrips } = await scan('token:pool-meteora-damm-v1');
    const market = s.expect.market!;
    assert.equal(evidence.markets[0].dex, 'Meteora DAMM v1');
    assert.equal(evidence.markets[0].pool, market.pool);
    assert.equal(evidence.markets[0].quote_depth, 50);
    assert.equal(evidence.markets[0].lp_mint, market.lpMint);
    const pullable = evidence.flags.LP_PULLABLE;
    assert.equal(pullable.pullable_share, 1);
    assert.deepEqual(
      pullable.wallets.map((w: { owner: string }) => w.owner),
      [market.lpHolders![0]!.owner],
    );
    assert.equal(
      roundTrips,
      5,
      'pool in round 3; vaults, vault LP and LP holders in 4; who holds the LP in 5',
    );
  });
});
