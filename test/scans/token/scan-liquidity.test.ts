/**
 * /scan/token's markets on the seeded liquidity subjects (pools in the real Raydium CPMM and Orca
 * Whirlpool layouts, owned by their real programs): each raises what its manifest entry says and
 * nothing it rules out, under the ideal RPC and the indexed provider, within the round trips
 * stated, with the extra calls counted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { countingTransport, delayedTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

const SUBJECTS = [
  'token:pool-lp-burned',
  'token:pool-lp-creator',
  'token:pool-lp-jup-locked',
  'token:pool-thin',
  'token:no-market',
  'token:pool-owned',
  'token:trade-thin',
];

describe('scanToken: pools and liquidity on the seeded sandbox', () => {
  const sandbox = useSeededSandbox('ideal', 'indexed-provider');

  async function scan(
    name: string,
    profile = 'ideal',
    delayMs = 0,
    refuse?: string | ((method: string, params: readonly unknown[]) => boolean),
  ) {
    const direct = createDefaultRpcTransport({ url: sandbox.servers[profile]!.url });
    const fails = typeof refuse === 'string' ? (m: string) => m === refuse : refuse;
    const base = fails ? failingTransport(direct, fails) : direct;
    const counter = countingTransport(delayMs > 0 ? delayedTransport(base, delayMs) : base);
    const s = subject(sandbox.manifest, 'token', name);
    const { result } = await scanToken(s.address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return {
      s,
      result,
      evidence: result.evidence as any,
      roundTrips: counter.roundTrips(),
      calls: [...counter.calls],
    };
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

  it('trade sizes: a thin CPMM pool quoted as worked by hand from its seeded reserves, in dollars from the seeded Pyth account, in its three round trips', async () => {
    const { s, evidence, roundTrips } = await scan('token:trade-thin', 'ideal', 20);
    const market = s.expect.market!;
    const [quote, base] = [Number(market.quoteReserve), Number(market.baseReserve)];
    // $1,000 at $150 a SOL; x·y = k with CPMM config 0's 0.25 % on the input.
    const x = (1000 / 150) * 1e9 * 0.9975;
    const impact = 1 - (0.9975 * quote) / (quote + x);
    const at1000 = evidence.trade.find((q: { usd: number }) => q.usd === 1000);
    assert.equal(at1000.pool, market.pool);
    assert.equal(at1000.exceeds_read_liquidity, false);
    assert.ok(Math.abs(at1000.buy_price_impact - impact) < 0.0005, `${at1000.buy_price_impact} vs ${impact}`);
    const tokens = (base * x) / (quote + x);
    const back = (quote * tokens * 0.9975) / (base + tokens * 0.9975);
    assert.ok(Math.abs(at1000.round_trip_loss - (1 - back / ((1000 / 150) * 1e9))) < 0.0005);
    assert.equal(evidence.trade_usd_prices.SOL.usd, 150);
    assert.equal(roundTrips, 3);
  });

  it("trade sizes: a Whirlpool's tick arrays are read beside its quote vault (4 round trips, as before), and a buy past its one position says so", async () => {
    const { evidence, roundTrips } = await scan('token:pool-thin', 'ideal', 20);
    assert.equal(evidence.trade_pools_not_quoted, undefined);
    const at1000 = evidence.trade.find((q: { usd: number }) => q.usd === 1000);
    assert.equal(at1000.exceeds_read_liquidity, true);
    assert.equal(at1000.buy_price_impact, null);
    assert.ok(at1000.buy_price_impact_at_least >= 0.1, JSON.stringify(at1000));
    assert.equal(roundTrips, 4);
  });

  it('burned LP: the CPMM pool is found by derivation, its depth and burned LP shown, in three round trips', async () => {
    const { s, result, evidence, roundTrips, calls } = await scan('token:pool-lp-burned', 'ideal', 20);
    const market = s.expect.market!;
    assert.deepEqual(evidence.markets, [
      {
        dex: 'Raydium CPMM',
        pool: market.pool,
        quote_mint: market.quoteMint,
        quote_depth: 100,
        quote: 'SOL',
        lp_mint: market.lpMint,
        lp: { burned_share: 1, locked_share: 0, wallet_share: 0, program_share: 0, unknown_share: 0 },
      },
    ]);
    const burned = (evidence.flags as any).LP_BURNED_OR_LOCKED;
    assert.equal(burned.pool, market.pool);
    assert.equal(roundTrips, 3);
    // The pool round: one getMultipleAccounts (pool candidates, vaults, LP mint) and the LP's largest
    // holders (insiders by funding reads the holders' signatures and transactions beside it).
    const beside = new Set(['getSignaturesForAddress', 'getTransaction']);
    assert.deepEqual(
      calls
        .filter((c) => !beside.has(c))
        .slice(-2)
        .sort(),
      ['getMultipleAccounts', 'getTokenLargestAccounts'],
    );
    // Concentration sets the pool's vault aside and names the pool.
    assert.deepEqual(
      evidence.excluded.map((e: { token_account: string; why: string }) => [e.token_account, e.why]),
      [[market.baseVault, `pool vault: Raydium CPMM pool ${market.pool}`]],
    );
    assert.ok(result.risk_score < 0.1, String(result.risk_score));
  });

  it("creator's LP: the wallet holding it is named, one more round reads who holds the LP", async () => {
    const { s, evidence, roundTrips } = await scan('token:pool-lp-creator', 'ideal', 20);
    const pullable = (evidence.flags as any).LP_PULLABLE;
    assert.equal(pullable.pullable_share, 1);
    assert.deepEqual(
      pullable.wallets.map((w: { owner: string }) => w.owner),
      [s.expect.market!.lpHolders![0]!.owner],
    );
    assert.equal(roundTrips, 4);
  });

  it('Jupiter Lock: the escrow that owns the LP is read and named, with its unlock date, in one more round', async () => {
    const { s, evidence, roundTrips, calls } = await scan('token:pool-lp-jup-locked', 'ideal', 20);
    const market = s.expect.market!;
    const locked = (evidence.flags as any).LP_BURNED_OR_LOCKED;
    assert.equal(locked.locked_share, 1);
    assert.deepEqual(locked.lockers, [
      {
        name: 'Jupiter Lock',
        program: market.lpLocker!.program,
        share: 1,
        token_account: market.lpHolders![0]!.tokenAccount,
        unlocks_at: market.lpLocker!.unlocksAt,
        fully_unlocks_at: market.lpLocker!.unlocksAt,
      },
    ]);
    assert.equal(market.lpHolders![0]!.owner, market.lpLocker!.escrow);
    // The creator's-LP pool takes four; the escrow (the LP holder's owner) is one more getMultipleAccounts.
    assert.equal(roundTrips, 5);
    assert.equal(calls.at(-1), 'getMultipleAccounts');
  });

  it('a round of pool reads that fails leaves what it asked for unread, never "no account": the LP is not called unlocked', async () => {
    const escrow = subject(sandbox.manifest, 'token', 'token:pool-lp-jup-locked').expect.market!.lpLocker!
      .escrow;
    const { result, evidence } = await scan(
      'token:pool-lp-jup-locked',
      'ideal',
      0,
      (method, params) =>
        method === 'getMultipleAccounts' && Array.isArray(params[0]) && params[0].includes(escrow),
    );
    const lp = evidence.markets.find((m: { lp: unknown }) => m.lp !== null).lp;
    assert.equal(lp.locked_share, 0);
    assert.deepEqual(
      lp.programs.map((p: { owner: string; why: string }) => [p.owner, p.why]),
      [[escrow, 'its owner was not read']],
    );
    assert.ok(result.flags.includes('LIQUIDITY_UNAVAILABLE'), String(result.flags));
    // The reason is the failed read, not a round-trip budget that did not run out.
    const reason = (evidence.flags as any).LIQUIDITY_UNAVAILABLE.reason;
    assert.match(reason, /getMultipleAccounts: injected failure/);
    assert.doesNotMatch(reason, /round-trip budget/);
    assert.ok(!result.flags.includes('LP_PULLABLE'), String(result.flags));
  });

  it('thin Whirlpool: depth 0.5 SOL against a 500 SOL market value, ratio 0.1 %', async () => {
    const { evidence, roundTrips } = await scan('token:pool-thin', 'ideal', 20);
    const thin = (evidence.flags as any).LIQUIDITY_THIN;
    assert.ok(Math.abs(thin.liquidity_ratio - 0.001) < 1e-6, String(thin.liquidity_ratio));
    assert.deepEqual(thin.market_value, { SOL: 500 });
    assert.match(evidence.markets[0].position_owners, /only for Whirlpools under Orca’s public config/);
    assert.equal(roundTrips, 4, 'a pool found through its vault owner: its quote vault needs a fourth round');
  });

  it('no market: MARKET_NONE, in three round trips and one extra call', async () => {
    const { result, roundTrips, calls } = await scan('token:no-market', 'ideal', 20);
    assert.deepEqual(result.flags, ['MARKET_NONE']);
    assert.equal(roundTrips, 3);
    // A young token's launch transactions (launch forensics) are read in round 2 as well, and its
    // holders' signatures (insiders by funding, every getSignaturesForAddress after the mint's) in round 3.
    const withoutLaunch = calls
      .filter((c) => c !== 'getTransaction')
      .filter((c, i, all) => c !== 'getSignaturesForAddress' || all.indexOf(c) === i);
    assert.equal(
      withoutLaunch.length,
      6,
      `${calls}: five token-fact calls and one getMultipleAccounts for the pools`,
    );
  });

  it("one wallet's position: 90 % of the Whirlpool's in-range liquidity, owners read in two more rounds", async () => {
    const { s, evidence, roundTrips, calls } = await scan('token:pool-owned', 'indexed-provider', 20);
    const hit = (evidence.flags as any).LIQUIDITY_OWNER_CONCENTRATED;
    assert.equal(hit.pool, (s.expect as any).market.pool);
    assert.equal(hit.share, 0.9);
    assert.equal(hit.measure, 'in-range liquidity');
    assert.equal(hit.positions_counted, 2, 'the larger position out of range is not counted');
    const owners = evidence.markets[0].position_owners;
    assert.equal(owners.positions_total, 3);
    assert.deepEqual(
      owners.owners.map((o: any) => o.share),
      [0.9, 0.1],
    );
    assert.equal(
      evidence.position_calls,
      4,
      'one getProgramAccounts, two NFT mints, one owner read (the pool is read with the liquidity candidates)',
    );
    // Positions take three dependent rounds from the pool round (list, NFT holders, their owners)
    // beside the liquidity's two: five deep. The counter merges calls that overlap in time, and
    // the position sandbox.chain starts a moment after the pool round's first call, so it may count four.
    // Insiders by funding reads a holder's first transaction beside the pool round; when that read
    // ends before a position read is sent, the counter puts the position read a round later: six.
    assert.equal(evidence.position_rounds, 3);
    assert.ok(roundTrips >= 4 && roundTrips <= 6, String(roundTrips));
    assert.equal(calls.filter((c) => c === 'getProgramAccounts').length, 1);
  });

  it('positions refused (a provider without getProgramAccounts): the owner is unknown, confidence drops, risk does not rise', async () => {
    const known = await scan('token:pool-owned', 'ideal');
    const refused = await scan('token:pool-owned', 'ideal', 0, 'getProgramAccounts');
    assert.ok(!refused.result.flags.includes('LIQUIDITY_OWNER_CONCENTRATED'), String(refused.result.flags));
    const unavailable = (refused.evidence.flags as any).LIQUIDITY_OWNERS_UNAVAILABLE;
    assert.match(unavailable.reason, /getProgramAccounts: injected failure/);
    assert.deepEqual(unavailable.pools, [(refused.s.expect as any).market.pool]);
    assert.ok(refused.result.confidence < known.result.confidence);
    assert.ok(refused.result.risk_score <= known.result.risk_score);
    assert.match(refused.evidence.markets[0].position_owners, /^not read: getProgramAccounts/);
    const largest = (calls: string[]) => calls.filter((c) => c === 'getTokenLargestAccounts').length;
    assert.deepEqual(
      [largest(known.calls), largest(refused.calls)],
      [3, 1],
      "the mint's, then no NFT owner looked up",
    );
  });
});
