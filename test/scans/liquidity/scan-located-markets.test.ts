/**
 * /scan/token on the seeded sandbox, for markets the scan once could not place: a Raydium AMM v4
 * pool seen only through its vault (owned by the shared AMM v4 authority), located with one filtered
 * getProgramAccounts; and a pump.fun coin still on its bonding curve, whose curve is its market.
 * Under the ideal node, the indexed provider and the public endpoint, with the calls counted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { countingTransport, delayedTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';

const AMM_V4 = 'token:pool-amm-v4-lp-creator';

describe('scanToken: AMM v4 pools located through their vault, pump.fun curves as markets', () => {
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

  type Fails = (method: string, params: readonly unknown[]) => boolean;
  async function scan(address: string, profile = 'ideal', fails: Fails | boolean = false) {
    // Calls 20 ms apart from the server's answer, so the counter tells sequential rounds apart.
    const base = delayedTransport(createDefaultRpcTransport({ url: servers[profile]!.url }), 20);
    const failing: Fails | null =
      fails === true ? (method) => method === 'getProgramAccounts' : fails === false ? null : fails;
    const counter = countingTransport(failing ? failingTransport(base, failing) : base);
    const { result } = await scanToken(address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return {
      result,
      evidence: result.evidence as any,
      calls: [...counter.calls],
      roundTrips: counter.roundTrips(),
    };
  }

  /**
   * A located AMM v4 pool, the token on `side`: the manifest's flags, the searches (one per side
   * searched) and rounds (the coin side's search beside the pool candidates, the pc side's a round
   * of its own after it; then the pool's quote vault, LP mint and LP holders; then their owners),
   * 100 SOL of depth, the creator's LP pullable, the vault excluded from concentration.
   */
  const AMM_V4_CASES = [
    { name: AMM_V4, side: 'coin', searches: 1, rounds: 5 },
    { name: 'token:pool-amm-v4-pc-side', side: 'pc', searches: 2, rounds: 6 },
  ] as const;
  for (const { name, side, searches, rounds } of AMM_V4_CASES) {
    for (const profile of ['ideal', 'indexed-provider']) {
      it(`AMM v4, the token on the ${side} side (${profile}): ${searches} getProgramAccounts locate the pool; its depth and the creator's LP are shown`, async () => {
        const s = subject(manifest, 'token', name);
        const { result, evidence, calls, roundTrips } = await scan(s.address, profile);
        const market = s.expect.market!;
        for (const code of s.expect.flags ?? [])
          assert.ok(result.flags.includes(code), `${code} in ${result.flags}`);
        for (const code of s.expect.notFlags ?? [])
          assert.ok(!result.flags.includes(code), `${code} not in ${result.flags}`);
        assert.equal(calls.filter((c) => c === 'getProgramAccounts').length, searches, String(calls));
        assert.equal(roundTrips, rounds);
        assert.deepEqual(evidence.markets, [
          {
            dex: 'Raydium AMM v4',
            pool: market.pool,
            quote_mint: market.quoteMint,
            quote_depth: 100,
            quote: 'SOL',
            lp_mint: market.lpMint,
            lp: { burned_share: 0, locked_share: 0, wallet_share: 1, program_share: 0, unknown_share: 0 },
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

  it('a token without an AMM v4 vault sends no getProgramAccounts and takes no extra round', async () => {
    for (const profile of ['ideal', 'public-mainnet']) {
      const { calls, roundTrips } = await scan(
        subject(manifest, 'token', 'token:pool-lp-creator').address,
        profile,
      );
      assert.ok(!calls.includes('getProgramAccounts'), `${profile}: ${calls}`);
      // As before AMM v4 search existed: the pool's rounds (scan-liquidity.test.ts has the ideal node's 4).
      if (profile === 'ideal') assert.equal(roundTrips, 4);
    }
  });

  it('public endpoint, largest holders refused: a token whose pool is found through its vault gets LIQUIDITY_UNAVAILABLE, never MARKET_NONE', async () => {
    const { result, evidence } = await scan(
      subject(manifest, 'token', 'token:pool-owned').address,
      'public-mainnet',
    );
    assert.ok(result.flags.includes('HOLDERS_UNAVAILABLE'), String(result.flags));
    assert.ok(!result.flags.includes('MARKET_NONE'), 'no pool found is not no pool');
    assert.match(evidence.flags.LIQUIDITY_UNAVAILABLE.reason, /the largest holders could not be read/);
  });

  it('the holders’ token accounts refused: a pool found through its vault’s owner is unknown, not absent (no MARKET_NONE)', async () => {
    const s = subject(manifest, 'token', 'token:pool-thin');
    const vault = s.expect.market!.baseVault;
    const { result, evidence } = await scan(
      s.address,
      'ideal',
      (method, params) => method === 'getMultipleAccounts' && JSON.stringify(params[0]).includes(vault),
    );
    assert.ok(!result.flags.includes('MARKET_NONE'), String(result.flags));
    assert.match(evidence.flags.LIQUIDITY_UNAVAILABLE.reason, /token accounts could not be read/);
  });

  it('an LP mint’s largest holders refused: who holds the LP is unknown, and LIQUIDITY_UNAVAILABLE says so', async () => {
    const s = subject(manifest, 'token', 'token:pool-lp-creator');
    const lpMint = s.expect.market!.lpMint!;
    const { result, evidence } = await scan(
      s.address,
      'ideal',
      (method, params) => method === 'getTokenLargestAccounts' && params[0] === lpMint,
    );
    assert.ok(!result.flags.includes('LP_PULLABLE'), 'the creator’s LP was not seen');
    assert.match(
      evidence.flags.LIQUIDITY_UNAVAILABLE.reason,
      new RegExp(`getTokenLargestAccounts \\(LP mint ${lpMint}\\)`),
    );
  });

  it('a coin on its pump.fun curve: the curve is its market (its real SOL is the depth), no MARKET_NONE', async () => {
    const s = subject(manifest, 'pumpfun', 'pumpfun:curve-active');
    const { result, evidence, calls, roundTrips } = await scan(s.address);
    assert.ok(!result.flags.includes('MARKET_NONE'), String(result.flags));
    assert.ok(!result.flags.includes('LIQUIDITY_UNAVAILABLE'), String(result.flags));
    // The curve owns a largest holder's account, so it is read with the other pool candidates: no extra round.
    assert.equal(roundTrips, 3);
    assert.ok(!result.flags.includes('LP_PULLABLE'), String(result.flags));
    const curve = s.expect;
    assert.deepEqual(evidence.markets, [
      {
        dex: 'pump.fun bonding curve',
        pool: curve.bondingCurve,
        quote_mint: 'So11111111111111111111111111111111111111112',
        quote_depth: Number((Number(curve.realQuoteReserves) / 1e9).toPrecision(9)),
        quote: 'SOL',
        lp_mint: null,
        lp: null,
      },
    ]);
    assert.ok(!calls.includes('getProgramAccounts'), String(calls));
    const excluded = evidence.excluded.find((e: { owner: string }) => e.owner === curve.bondingCurve);
    assert.equal(excluded?.why, 'pump.fun bonding curve');
  });

  it('a graduated coin: its complete curve is no market, its PumpSwap pool is', async () => {
    const { evidence } = await scan(subject(manifest, 'pumpfun', 'pumpfun:graduated').address);
    assert.deepEqual(
      evidence.markets.map((m: { dex: string }) => m.dex),
      ['PumpSwap'],
    );
  });
});
