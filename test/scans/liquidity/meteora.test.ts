/**
 * Meteora DAMM v1 and v2 pools in the liquidity checks, on real mainnet accounts
 * (fixtures/mainnet/PROVENANCE.md): discovery reads the pools Meteora's SDKs derive for the mint
 * with the other candidates, a DAMM v1 pool's dynamic vaults and vault-LP come in the next round,
 * and its depth is the pool's share of the shared vault, not the vault's whole balance.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Address, address } from '@solana/kit';
import { encodeTokenAccount } from '../../../src/sandbox/scenarios/builders/pool-layouts.js';
import { assessLiquidity } from '../../../src/scans/liquidity/assess.js';
import {
  type Discovery,
  derivePools,
  discoverWith,
  nextReads,
  withHeldVaults,
} from '../../../src/scans/liquidity/discover.js';
import type { LiquidityFacts } from '../../../src/scans/liquidity/facts.js';
import { marketOf } from '../../../src/scans/liquidity/markets.js';
import { reserveOf } from '../../../src/scans/liquidity/reserves.js';
import type { RawAccount, TokenFacts } from '../../../src/scans/token-facts/model.js';
import { viewOf } from '../../../src/scans/token-facts/view.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import {
  METEORA_DAMM_V2_POOL_AUTHORITY,
  PUMPSWAP_GLOBAL_CONFIG,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

/** Past both vaults' last reports by more than six hours: their reported profit is all unlocked. */
const LATER = 1_720_000_000;
const MSOL = address('mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So');
const dump = (file: string): RawAccount => {
  const d = loadAccount(file);
  return { address: d.address, owner: d.owner, lamports: d.lamports, data: d.data };
};
const pool = dump('meteora-damm-v1-pool-HcjZvfeS-sol-msol.json');
const solVault = dump('meteora-vault-FERjPVNE-wsol.json');
const msolVault = dump('meteora-vault-8p1VKP45-msol.json');
const v1Accounts = [
  pool,
  solVault,
  msolVault,
  dump('meteora-vault-lp-mint-FZN7QZ8Z-wsol.json'),
  dump('meteora-vault-lp-mint-21bR3D4Q-msol.json'),
  dump('meteora-damm-v1-vault-lp-HWnWnLvB-wsol.json'),
  dump('meteora-damm-v1-vault-lp-GGG4DxkY-msol.json'),
  dump('meteora-damm-v1-lp-mint-B2uEs9zj.json'),
];
const byAddress = (accounts: RawAccount[]) =>
  new Map<Address, RawAccount | null>(accounts.map((a) => [a.address, a]));

/** Token facts with no holder read: discovery then rests on derivation alone. */
const factsOf = (mint: Address): TokenFacts => ({
  mint,
  mintAccount: null,
  metadataAddress: mint,
  metadataAccount: null,
  extraAccounts: [],
  epoch: null,
  largest: [],
  largestError: null,
  holderAccounts: [],
  history: null,
  nowSeconds: 0,
});

describe('Meteora pools in discovery', () => {
  it('the DAMM v1 and v2 pools of the mint against wSOL and USDC are candidates of the first pool round', async () => {
    const mint = address('G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS');
    const derived = await derivePools(mint);
    // Per quote: DAMM v2 customizable + 7 DBC configs; DAMM v1 permissionless 25/100/400/600 bps,
    // customizable, 6 DBC configs.
    assert.equal(derived.meteora.pools.length, 2 * (8 + 11));
    const d = discoverWith(factsOf(mint), derived);
    // The real DAMM v2 pool of this mint (a DBC graduation) is among them.
    assert.ok(d.candidates.includes(address('6CXXieC355gteamwofSzJn8DiyrbKyYyXc3eBKmB81CF')));
    for (const p of derived.meteora.pools) assert.ok(d.candidates.includes(p));
    // Nothing Meteora is read speculatively: a token without Meteora pools pays no extra round
    // (PumpSwap's GlobalConfig is, for its fees: one address, no round).
    assert.deepEqual(d.speculative, [PUMPSWAP_GLOBAL_CONFIG, derived.canonicalQuote, derived.canonicalLp]);
    // The wSOL dynamic vault's LP mint is known before any read (a listed, non-PDA one).
    assert.equal(
      d.vaultLpMints?.get(solVault.address),
      address('FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j'),
    );
  });

  it('a DAMM v2 vault among the largest holders: its pool and quote vault are read in the same round', async () => {
    const mint = address('G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS');
    const baseVault = address('9B3KPhHyDhUmNvjY2vk6JYs3vfUgPTzB9u1fWYsfK1s5');
    const held: TokenFacts = {
      ...factsOf(mint),
      largest: [{ address: baseVault, amount: 10n ** 14n }],
      holderAccounts: [
        {
          address: baseVault,
          owner: TOKEN_PROGRAM,
          lamports: 2_039_280n,
          data: encodeTokenAccount(mint, METEORA_DAMM_V2_POOL_AUTHORITY, 10n ** 14n),
        },
      ],
    };
    const derived = await derivePools(mint);
    // The vault PDAs are derived only once a holder is owned by DAMM v2's shared authority.
    assert.deepEqual(derived.meteora.dammV2, []);
    const d = discoverWith(held, await withHeldVaults(held.mint, viewOf(held).decoded.holders, derived));
    assert.ok(d.candidates.includes(address('6CXXieC355gteamwofSzJn8DiyrbKyYyXc3eBKmB81CF')));
    assert.ok(d.speculative.includes(address('wAx8Her71ffN9hNyh5nj6WR7m56tAGrkajNiEdoGy4G')));
    // Until its pool is read, the vault is a DAMM v2 market whose pool is not located.
    assert.deepEqual(
      d.unlocated.map((v) => v.dex),
      ['meteora-damm-v2'],
    );
  });

  it("a DAMM v1 pool read: the next round asks for its vaults, its vault-LP, the vaults' LP mints and its LP mint at once", async () => {
    const derived = await derivePools(MSOL);
    const d: Discovery = {
      ...discoverWith(factsOf(MSOL), derived),
      candidates: [pool.address],
      speculative: [],
    };
    const afterPool = nextReads(d, { accounts: byAddress([pool]), largest: new Map() });
    const lp = (f: string) => loadAccount(f).address;
    for (const a of [
      solVault.address,
      msolVault.address,
      lp('meteora-damm-v1-vault-lp-HWnWnLvB-wsol.json'),
      lp('meteora-damm-v1-vault-lp-GGG4DxkY-msol.json'),
      lp('meteora-vault-lp-mint-FZN7QZ8Z-wsol.json'),
      lp('meteora-damm-v1-lp-mint-B2uEs9zj.json'),
    ])
      assert.ok(afterPool.accounts.includes(a), a);
    // mSOL's vault is an old one whose LP mint is not the PDA: read once the vault names it.
    const mSolLp = lp('meteora-vault-lp-mint-21bR3D4Q-msol.json');
    assert.ok(!afterPool.accounts.includes(mSolLp));
    const read = byAddress(v1Accounts.filter((a) => a.address !== mSolLp));
    assert.deepEqual(nextReads(d, { accounts: read, largest: new Map() }).accounts, [mSolLp]);
  });
});

describe("a DAMM v1 pool seen only through the mint's dynamic vault", () => {
  const vaultTokens = dump('meteora-vault-token-account-3ifhD4Yw-msol.json');
  const heldByVault = (): TokenFacts => ({
    ...factsOf(MSOL),
    largest: [{ address: vaultTokens.address, amount: 81_596_954_022_978n }],
    holderAccounts: [vaultTokens],
  });
  const mint = () =>
    expectDecoded(decodeMint(loadAccount('msol-mint.json').data, loadAccount('msol-mint.json').owner));

  it('is a market whose pool was not located (LIQUIDITY_UNAVAILABLE), not "no market"', async () => {
    const d = discoverWith(heldByVault(), await derivePools(MSOL));
    assert.deepEqual(d.unlocated, [
      {
        dex: 'meteora-damm-v1',
        tokenAccount: vaultTokens.address,
        owner: msolVault.address,
        amount: 81_596_954_022_978n,
      },
    ]);
    assert.ok(!d.candidates.includes(msolVault.address), 'a vault is no pool: not read as a candidate');
    // SOL's and USDC's vaults serve every pool quoted in them (and lenders): no pool of theirs is implied.
    assert.equal((await derivePools(WSOL_MINT)).meteora.ownVault, null);
    const liquidity: LiquidityFacts = {
      discovery: d,
      reads: { accounts: new Map(d.candidates.map((c) => [c, null])), largest: new Map() },
      rounds: 1,
      errors: [],
      incomplete: false,
    };
    const outcome = assessLiquidity(liquidity, mint());
    const codes = outcome.hits.map((h) => h.code);
    assert.ok(codes.includes('LIQUIDITY_UNAVAILABLE') && !codes.includes('MARKET_NONE'), String(codes));
    assert.equal(outcome.named.get(vaultTokens.address), 'pool vault: Meteora DAMM v1 (pool not located)');
  });

  it('is no longer unlocated once a DAMM v1 pool of that vault is read', async () => {
    const d = { ...discoverWith(heldByVault(), await derivePools(MSOL)), candidates: [pool.address] };
    const liquidity: LiquidityFacts = {
      discovery: d,
      reads: { accounts: byAddress(v1Accounts), largest: new Map() },
      rounds: 2,
      errors: [],
      incomplete: false,
    };
    const outcome = assessLiquidity(liquidity, mint());
    assert.deepEqual(outcome.summary.unlocated_markets, []);
    assert.ok(!outcome.hits.some((h) => h.code === 'LIQUIDITY_UNAVAILABLE'));
  });
});

describe('Meteora pools as markets', () => {
  it("a DAMM v1 pool's sides are its shares of the dynamic vaults: 44,337.9 SOL of the vault's 154,402", () => {
    const market = marketOf(pool, MSOL);
    assert.ok(market);
    assert.equal(market.dex, 'meteora-damm-v1');
    assert.equal(market.quoteMint, WSOL_MINT);
    assert.equal(market.quoteVault, solVault.address);
    assert.equal(market.lpMint, loadAccount('meteora-damm-v1-lp-mint-B2uEs9zj.json').address);
    const accounts = byAddress(v1Accounts);
    assert.equal(
      reserveOf(market, 'quote', accounts, LATER),
      (154_402_082_133_447n * 41_924_615_981_385n) / 145_998_019_653_473n,
    );
    assert.equal(
      reserveOf(market, 'base', accounts, LATER),
      (82_323_752_629_142n * 78_979_143_181_675n) / 81_482_558_527_139n,
    );
    // Without the vault LP mint the share is unknown, not the vault's whole balance.
    accounts.delete(loadAccount('meteora-vault-lp-mint-FZN7QZ8Z-wsol.json').address);
    assert.equal(reserveOf(market, 'quote', accounts, LATER), null);
  });

  it('assessLiquidity shows the DAMM v1 depth in SOL, with no pool reported unreadable', () => {
    const mint = expectDecoded(
      decodeMint(loadAccount('msol-mint.json').data, loadAccount('msol-mint.json').owner),
    );
    const liquidity: LiquidityFacts = {
      discovery: {
        mint: MSOL,
        candidates: [pool.address],
        speculative: [],
        speculativeLargest: [],
        unlocated: [],
      },
      reads: { accounts: byAddress(v1Accounts), largest: new Map() },
      rounds: 2,
      errors: [],
      incomplete: false,
    };
    const outcome = assessLiquidity(liquidity, mint);
    const markets = outcome.summary.markets as { dex: string; quote: string; quote_depth: number }[];
    assert.equal(markets.length, 1);
    assert.equal(markets[0]?.dex, 'Meteora DAMM v1');
    assert.equal(markets[0]?.quote, 'SOL');
    assert.equal(markets[0]?.quote_depth, 44_337.9165, '44,337.916469931 SOL to 9 significant digits');
    // At the wSOL vault's last report its 2.78 SOL of profit is still locked: the pool's share of it is no depth.
    const reported = assessLiquidity(liquidity, mint, { nowSeconds: 1_719_233_007 });
    const depth = (reported.summary.markets as { quote_depth: number }[])[0]?.quote_depth;
    const lockedShare = (2.783432316 * 41_924_615_981_385) / 145_998_019_653_473;
    assert.equal(depth, Number((44_337.916469931 - lockedShare).toPrecision(9)));
    const codes = outcome.hits.map((h) => h.code);
    assert.ok(!codes.includes('LIQUIDITY_UNAVAILABLE'), String(codes));
    assert.ok(!codes.includes('MARKET_NONE'));
    // Concentration names the mSOL vault (owner of the vault's token account) as this pool's.
    assert.equal(outcome.named.get(msolVault.address), `pool vault: Meteora DAMM v1 pool ${pool.address}`);
  });

  it("a DAMM v2 pool's protocol fees are not counted as depth", () => {
    const v2 = dump('meteora-damm-v2-pool-6CXXieC3.json');
    const market = marketOf(v2, address('G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS'));
    assert.equal(market?.dex, 'meteora-damm-v2');
    assert.equal(market?.quoteMint, WSOL_MINT);
    assert.equal(market?.quoteNotLiquidity, 712_006_203_593n);
  });

  it("a DAMM v2 pool's partner fees are not counted as depth either", () => {
    const v2 = dump('meteora-damm-v2-pool-6CXXieC3.json');
    const data = new Uint8Array(v2.data);
    new DataView(data.buffer).setBigUint64(416, 1_000_000_000n, true); // 1 SOL of partner fees (B is SOL)
    const market = marketOf({ ...v2, data }, address('G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS'));
    assert.equal(market?.quoteNotLiquidity, 712_006_203_593n + 1_000_000_000n);
  });
});
