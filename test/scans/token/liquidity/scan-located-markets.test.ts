/**
 * /scan/token on the seeded sandbox: a Raydium AMM v4 pool seen only through its vault (owned by the
 * shared AMM v4 authority), located with one filtered getProgramAccounts, under the ideal node, the
 * indexed provider and the public endpoint, with the calls counted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, seededChain, subject } from '../../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../../src/scans/token/index.js';
import { countingTransport, failingTransport } from '../../../helpers/rpc-transports.js';

const AMM_V4 = 'token:pool-amm-v4-lp-creator';

describe('scanToken: AMM v4 pools located through their vault', () => {
  let chain: SandboxChain;
  let manifest: ScenarioManifest;
  const servers: Record<string, SandboxRpc> = {};
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    for (const profile of ['ideal', 'indexed-provider', 'public-mainnet'] as const) {
      servers[profile] = await startSandboxRpc({
        chain,
        host: '127.0.0.1',
        port: 0,
        profile: { name: profile, rateLimit: null },
      });
    }
  });
  after(async () => {
    chain.stop();
    for (const s of Object.values(servers)) await s.close();
  });

  async function scan(address: string, profile = 'ideal', failGpa = false) {
    const base = createDefaultRpcTransport({ url: servers[profile]!.url });
    const counter = countingTransport(
      failGpa ? failingTransport(base, (method) => method === 'getProgramAccounts') : base,
    );
    const { result } = await scanToken(address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, evidence: result.evidence as any, calls: [...counter.calls] };
  }

  for (const profile of ['ideal', 'indexed-provider']) {
    it(`AMM v4 (${profile}): one getProgramAccounts finds the pool; its depth and the creator's LP are shown`, async () => {
      const s = subject(manifest, 'token', AMM_V4);
      const { result, evidence, calls } = await scan(s.address, profile);
      const market = s.expect.market!;
      for (const code of s.expect.flags ?? [])
        assert.ok(result.flags.includes(code), `${code} in ${result.flags}`);
      for (const code of s.expect.notFlags ?? [])
        assert.ok(!result.flags.includes(code), `${code} not in ${result.flags}`);
      assert.equal(calls.filter((c) => c === 'getProgramAccounts').length, 1, String(calls));
      assert.deepEqual(evidence.markets, [
        {
          dex: 'Raydium AMM v4',
          pool: market.pool,
          quote_mint: market.quoteMint,
          quote_depth: 100,
          quote: 'SOL',
          lp_mint: market.lpMint,
          lp: { burned_share: 0, locked_share: 0, wallet_share: 1, unknown_share: 0 },
        },
      ]);
      assert.deepEqual(evidence.unlocated_markets, []);
      const pullable = evidence.flags.LP_PULLABLE;
      assert.equal(pullable.pool, market.pool);
      assert.deepEqual(
        pullable.wallets.map((w: { owner: string }) => w.owner),
        [market.lpHolders![0]!.owner],
      );
      assert.deepEqual(
        evidence.excluded.map((e: { token_account: string; why: string }) => [e.token_account, e.why]),
        [[market.baseVault, `pool vault: Raydium AMM v4 pool ${market.pool}`]],
      );
    });
  }

  it('AMM v4, search refused: the vault stays unlocated, the refusal is in LIQUIDITY_UNAVAILABLE', async () => {
    const s = subject(manifest, 'token', AMM_V4);
    const { result, evidence } = await scan(s.address, 'ideal', true);
    assert.ok(result.flags.includes('LIQUIDITY_UNAVAILABLE'), String(result.flags));
    assert.ok(!result.flags.includes('MARKET_NONE'), String(result.flags));
    assert.ok(!result.flags.includes('LP_PULLABLE'), String(result.flags));
    const why = evidence.flags.LIQUIDITY_UNAVAILABLE;
    assert.deepEqual(why.pools, [s.expect.market!.baseVault]);
    assert.match(why.reason, /getProgramAccounts \(Raydium AMM v4 pool of vault/);
    assert.match(why.reason, /the RPC refused the getProgramAccounts search/);
    assert.deepEqual(evidence.markets, []);
    assert.equal(evidence.unlocated_markets[0].vault, s.expect.market!.baseVault);
  });

  it('a token without an AMM v4 vault sends no getProgramAccounts, under any profile', async () => {
    for (const profile of ['ideal', 'public-mainnet']) {
      const { calls } = await scan(subject(manifest, 'token', 'token:pool-lp-creator').address, profile);
      assert.ok(!calls.includes('getProgramAccounts'), `${profile}: ${calls}`);
    }
  });
});
