/**
 * Pure: liquidity facts → flags, the markets summary and the names of the pool vaults among the
 * largest holders (so concentration can say which pool it set aside).
 *
 * Market value is the deepest priced pool's price (raw quote per raw token: the pool's own price
 * for concentrated pools, the vault balances for constant-product ones) times the supply. The
 * liquidity ratio sums each SOL/USDC pool's quote depth over the market value at its own price.
 */
import type { Address } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import { type DecodedMint, decodeMint, type TransferFee } from '../../solana/decoders/mint.js';
import type { FlagHit } from '../risk/model.js';
import { pct, ramp, round, short } from '../risk/numbers.js';
import type { RawAccount } from '../token-facts/model.js';
import { ammV4SearchOutcome } from './amm-v4-search.js';
import { lpLiveShare, marketsRead, QUOTES } from './discover.js';
import type { LiquidityFacts } from './facts.js';
import type { LIQUIDITY_FLAGS } from './flags.js';
import { classifyLpHolder, type LpHolder, type LpHolding, lpHolderOf } from './lockers.js';
import { CONCENTRATED, DEX_NAMES, type Market } from './markets.js';
import type { UnlocatedVault } from './model.js';
import { assessPositions, type PositionsOutcome, unlistedWhy } from './positions-assess.js';
import type { POSITION_FLAGS } from './positions-flags.js';
import { reserveOf } from './reserves.js';
import { DEEP_ENOUGH, LP_PULLABLE, LP_SAFE_SHARE, THIN } from './thresholds.js';
import { assessTrade } from './trade/assess.js';

/** The liquidity and position flags: this assessment raises no other. */
type Hit = FlagHit<keyof typeof LIQUIDITY_FLAGS | keyof typeof POSITION_FLAGS>;

/** DEEP_ENOUGH of a quote in its raw units; beyond any pool for a quote it does not name. */
function deepEnough(symbol: string | null): bigint {
  const whole = DEEP_ENOUGH[symbol as keyof typeof DEEP_ENOUGH];
  const decimals = [...QUOTES.values()].find((q) => q.symbol === symbol)?.decimals;
  return whole === undefined || decimals === undefined ? 2n ** 64n : BigInt(whole) * 10n ** BigInt(decimals);
}

interface Priced {
  readonly market: Market;
  readonly symbol: string | null;
  readonly depth: bigint | null;
  readonly price: number | null;
  readonly marketValue: number | null;
}

function price(m: Market, base: bigint | null, depth: bigint | null): number | null {
  if (m.statePrice !== null) return m.statePrice;
  if (base === null || depth === null || base === 0n) return null;
  return Number(depth) / Number(base);
}

function priceMarket(m: Market, liquidity: LiquidityFacts, supply: bigint, now: number): Priced {
  const accounts = liquidity.reads.accounts;
  const quote = m.stateDepth ?? reserveOf(m, 'quote', accounts, now);
  const depth = quote === null ? null : quote > m.quoteNotLiquidity ? quote - m.quoteNotLiquidity : 0n;
  const p = price(m, reserveOf(m, 'base', accounts, now), depth);
  const symbol = QUOTES.get(m.quoteMint)?.symbol ?? null;
  return { market: m, symbol, depth, price: p, marketValue: p === null ? null : p * Number(supply) };
}

function ui(amount: bigint, symbol: string | null): number {
  const decimals = [...QUOTES.values()].find((q) => q.symbol === symbol)?.decimals ?? 0;
  return round(Number(amount) / 10 ** decimals, 9);
}

function thinHit(priced: readonly Priced[]): Hit | null {
  // A bonding curve is left out: it prices every sale from its virtual reserves, and its real SOL
  // is what buyers paid in, not a depth a seller can exhaust ahead of others (CURVE_* say the rest).
  const usable = priced.filter(
    (p) =>
      p.market.dex !== 'pumpfun-curve' &&
      p.symbol !== null &&
      p.depth !== null &&
      p.marketValue !== null &&
      p.marketValue > 0,
  );
  if (usable.length === 0) return null;
  if (usable.some((p) => p.depth !== null && p.depth >= deepEnough(p.symbol))) return null;
  const ratio = usable.reduce((s, p) => s + Number(p.depth) / (p.marketValue ?? 1), 0);
  if (ratio >= THIN.warn) return null;
  const deepest = [...usable].sort((a, b) => Number((b.depth ?? 0n) - (a.depth ?? 0n)))[0] as Priced;
  const symbol = deepest.symbol ?? '';
  return {
    code: 'LIQUIDITY_THIN',
    strength: ramp(THIN.warn - ratio, 0, THIN.warn - THIN.full),
    evidence: {
      liquidity_ratio: round(ratio),
      quote_depth: usable.map((p) => ({
        pool: p.market.pool,
        [p.symbol ?? '?']: ui(p.depth ?? 0n, p.symbol),
      })),
      market_value: { [symbol]: ui(BigInt(Math.round(deepest.marketValue ?? 0)), symbol) },
      pools: usable.map((p) => p.market.pool),
    },
    reason: `its pools hold ${pct(ratio)} of its market value in ${symbol || 'quote'}: selling moves the price a lot`,
  };
}

interface LockerShare {
  name: string;
  program: Address;
  share: number;
  token_account?: Address;
  unlocks_at?: string | null;
  fully_unlocks_at?: string | null;
}

interface LpSplit {
  readonly burned: number;
  /** Held by a recognised locker and not released within the horizon. */
  readonly locked: number;
  /** The share of it in recognised lockers, by locker. */
  readonly lockers: LockerShare[];
  /** Single keys that can withdraw: wallets, and lock recipients or creators who can take LP out soon. */
  readonly wallets: { owner: Address; token_account: Address; share: number; via?: string; why?: string }[];
  /** Program addresses we cannot vouch for: not locked, not pullable by a key we can name. */
  readonly program: number;
  readonly programs: {
    owner: Address;
    program: Address | null;
    token_account: Address;
    share: number;
    why: string;
  }[];
  readonly unknown: number;
}

/** Largest time a Date holds (ms): a lock dated past it (a u64 cliff of any size is valid bytes) is shown as null, never. */
const MAX_DATE_MS = 8.64e15;
const iso = (seconds: number | null) =>
  seconds === null || seconds * 1000 > MAX_DATE_MS ? null : new Date(seconds * 1000).toISOString();

/** Shares of what the pool issued, per LP holder read: an account's LP over the mint's supply, scaled by the unburned part. */
function holderShares(m: Market, liquidity: LiquidityFacts, live: number) {
  const largest = liquidity.reads.largest.get(m.lpMint as Address) ?? [];
  const lpMintAccount = liquidity.reads.accounts.get(m.lpMint as Address);
  const decodedMint = lpMintAccount ? decodeMint(lpMintAccount.data, lpMintAccount.owner) : null;
  const total = decodedMint?.ok ? decodedMint.value.supply : largest.reduce((s, l) => s + l.amount, 0n);
  return largest.flatMap((l) => {
    const holder = lpHolderOf(l.address, liquidity.reads.accounts.get(l.address));
    const share = total === 0n ? 0 : (Number(l.amount) / Number(total)) * live;
    return holder ? [{ holder, share }] : [];
  });
}

function addHolding(split: Mutable<LpSplit>, holder: LpHolder, share: number, holding: LpHolding) {
  if (share <= 0) return;
  if (holding.kind === 'burned') split.burned += share;
  else if (holding.kind === 'wallet') {
    split.wallets.push({ owner: holder.owner, token_account: holder.address, share: round(share, 4) });
  } else if (holding.kind === 'program') {
    split.program += share;
    split.programs.push({
      owner: holder.owner,
      program: holding.program,
      token_account: holder.address,
      share: round(share, 4),
      why: holding.why,
    });
  } else {
    const out = holder.amount === 0n ? 0 : (share * Number(holding.pullable)) / Number(holder.amount);
    split.locked += share - out;
    const dated = holding.unlocksAt !== null || holding.fullyUnlocksAt !== null;
    split.lockers.push({
      ...holding.locker,
      share: round(share - out, 4),
      ...(dated
        ? {
            token_account: holder.address,
            unlocks_at: iso(holding.unlocksAt),
            fully_unlocks_at: iso(holding.fullyUnlocksAt),
          }
        : {}),
    });
    if (out > 0 && holding.pullableBy) addReleased(split, holder, out, holding.pullableBy, holding);
  }
}

/**
 * LP a lock lets out soon: a wallet's to pull when it goes to a single key; when it goes to a
 * program address (a multisig, a DAO, a vault), held under that program, as any LP there is.
 */
function addReleased(
  split: Mutable<LpSplit>,
  holder: LpHolder,
  out: number,
  owner: Address,
  holding: Extract<LpHolding, { kind: 'locked' }>,
) {
  if (isOnCurveAddress(owner)) {
    split.wallets.push({
      owner,
      token_account: holder.address,
      share: round(out, 4),
      via: holding.locker.name,
      ...(holding.why ? { why: holding.why } : {}),
    });
    return;
  }
  split.program += out;
  split.programs.push({
    owner,
    program: null,
    token_account: holder.address,
    share: round(out, 4),
    why: `${holding.why ?? 'the lock lets it out'} (${holding.locker.name}), to a program address, not a single key`,
  });
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Where a pool's LP is: burned, in a recognised lock, under another program, in wallets, or unknown. */
function lpSplit(m: Market, liquidity: LiquidityFacts, nowSeconds: number): LpSplit | null {
  if (m.lpMint === null) return null;
  const live = lpLiveShare(m, liquidity.reads.accounts.get(m.lpMint));
  if (live === null) return null;
  const split: Mutable<LpSplit> = {
    burned: 1 - live,
    locked: 0,
    lockers: [],
    wallets: [],
    program: 0,
    programs: [],
    unknown: 0,
  };
  const largest = liquidity.reads.largest.get(m.lpMint);
  if (largest === undefined || largest === null) return { ...split, unknown: live };
  let known = 0;
  for (const { holder, share } of holderShares(m, liquidity, live)) {
    known += share;
    const owner = liquidity.reads.accounts.get(holder.owner);
    addHolding(split, holder, share, classifyLpHolder(holder, owner, nowSeconds));
  }
  return { ...split, unknown: Math.max(0, live - known) };
}

function lockedIn(split: LpSplit): string {
  const names = [...new Set(split.lockers.filter((l) => l.share > 0).map((l) => l.name))];
  return names.length ? ` (in ${names.join(', ')})` : '';
}

function lpHits(m: Market, split: LpSplit): Hit[] {
  const pullable = split.wallets.reduce((s, w) => s + w.share, 0);
  const base = { pool: m.pool, dex: DEX_NAMES[m.dex], lp_mint: m.lpMint };
  const hits: Hit[] = [];
  if (pullable >= LP_PULLABLE.warn) {
    hits.push({
      code: 'LP_PULLABLE',
      strength: ramp(pullable, LP_PULLABLE.warn, LP_PULLABLE.full),
      evidence: { ...base, pullable_share: round(pullable, 4), wallets: split.wallets },
      reason: `wallets hold ${pct(pullable)} of the LP of its ${DEX_NAMES[m.dex]} pool ${short(m.pool)} and can pull that liquidity`,
    });
  }
  if (split.burned + split.locked >= LP_SAFE_SHARE) {
    hits.push({
      code: 'LP_BURNED_OR_LOCKED',
      strength: 1,
      evidence: {
        ...base,
        burned_share: round(split.burned, 4),
        locked_share: round(split.locked, 4),
        lockers: split.lockers,
      },
      reason: `${pct(split.burned + split.locked)} of the LP of its ${DEX_NAMES[m.dex]} pool ${short(m.pool)} is burned or locked${lockedIn(split)}`,
    });
  }
  return hits;
}

export interface LiquidityOutcome {
  readonly hits: Hit[];
  readonly summary: Record<string, unknown>;
  /** Token account → why it is set aside in concentration (the pool it belongs to). */
  readonly named: ReadonlyMap<string, string>;
}

export interface LiquidityOptions {
  /** The token trades elsewhere (an active pump.fun curve, a widely used token): no pool found is expected. */
  readonly tradedElsewhere?: boolean;
  /** The scan's time (unix seconds), for lock schedules and vesting vault profit; the clock when absent. */
  readonly nowSeconds?: number;
  /** Pyth's SOL/USD account as read with the mint (undefined: not read), for the trade sizes in dollars. */
  readonly solUsd?: RawAccount | null | undefined;
  /** The Token-2022 transfer fee in force, taken on both legs of a trade. */
  readonly transferFee?: TransferFee | null;
}

function unlocatedWhy(v: UnlocatedVault, liquidity: LiquidityFacts): string {
  if (v.dex !== 'raydium-amm-v4') return 'its pool cannot be located without getProgramAccounts';
  switch (ammV4SearchOutcome(v.tokenAccount, liquidity.reads.searches)) {
    case 'failed':
      return 'its pool was not located: the RPC refused the getProgramAccounts search for it, or did not answer in time';
    case 'not-found':
      return 'no Raydium AMM v4 pool names it as a vault';
    case 'not-a-pool':
      return 'the Raydium AMM v4 account that names it as a vault is not a pool trading this token';
    default:
      return 'its pool was not searched for (getProgramAccounts)';
  }
}

function unavailableHit(
  liquidity: LiquidityFacts,
  priced: readonly Priced[],
  unlocated: readonly UnlocatedVault[],
): Hit | null {
  const reasons: string[] = [...liquidity.errors];
  const pools: string[] = [];
  for (const v of unlocated) {
    reasons.push(`${DEX_NAMES[v.dex]} vault ${v.tokenAccount}: ${unlocatedWhy(v, liquidity)}`);
    pools.push(v.tokenAccount);
  }
  for (const p of priced.filter((x) => x.symbol !== null && x.depth === null)) {
    reasons.push(`${DEX_NAMES[p.market.dex]} pool ${p.market.pool}: its quote vault could not be read`);
    pools.push(p.market.pool);
  }
  if (liquidity.incomplete) reasons.push('the round-trip budget ran out before every LP holder was read');
  if (reasons.length === 0) return null;
  return {
    code: 'LIQUIDITY_UNAVAILABLE',
    strength: 1,
    evidence: { reason: reasons.join('; '), pools },
    reason: 'some of its pools could not be read or located',
  };
}

function summaryOf(
  priced: readonly Priced[],
  splits: Map<Market, LpSplit | null>,
  liquidity: LiquidityFacts,
  unlocated: readonly UnlocatedVault[],
  owners: PositionsOutcome,
) {
  return {
    markets: priced.map((p) => {
      const split = splits.get(p.market) ?? null;
      return {
        dex: DEX_NAMES[p.market.dex],
        pool: p.market.pool,
        quote_mint: p.market.quoteMint,
        quote_depth: p.depth === null ? null : p.symbol ? ui(p.depth, p.symbol) : String(p.depth),
        quote: p.symbol,
        lp_mint: p.market.lpMint,
        lp:
          split === null
            ? null
            : {
                burned_share: round(split.burned, 4),
                locked_share: round(split.locked, 4),
                wallet_share: round(
                  split.wallets.reduce((s, w) => s + w.share, 0),
                  4,
                ),
                program_share: round(split.program, 4),
                unknown_share: round(split.unknown, 4),
                ...(split.lockers.length ? { lockers: split.lockers } : {}),
                ...(split.programs.length ? { programs: split.programs } : {}),
              },
        ...(CONCENTRATED.has(p.market.dex)
          ? {
              position_owners:
                owners.byPool.get(p.market.pool) ??
                unlistedWhy(p.market.dex, p.market.pool, liquidity.positions),
            }
          : {}),
      };
    }),
    unlocated_markets: unlocated.map((v) => ({
      dex: DEX_NAMES[v.dex],
      vault: v.tokenAccount,
      amount: String(v.amount),
    })),
    liquidity_rounds: liquidity.rounds,
    ...(owners.calls > 0 ? { position_rounds: owners.rounds, position_calls: owners.calls } : {}),
  };
}

export function assessLiquidity(
  liquidity: LiquidityFacts,
  mint: DecodedMint,
  options: LiquidityOptions = {},
): LiquidityOutcome {
  const markets = marketsRead(liquidity.discovery, liquidity.reads);
  // A vault with a shared owner (CPMM, DAMM) may belong to a pool that derivation located after all
  // (a DAMM v1 market's base vault is the dynamic vault owning the token account).
  const unlocated = liquidity.discovery.unlocated.filter(
    (v) => !markets.some((m) => m.baseVault === v.tokenAccount || m.baseVault === v.owner),
  );
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const priced = markets.map((m) => priceMarket(m, liquidity, mint.supply, now));
  const splits = new Map(markets.map((m) => [m, lpSplit(m, liquidity, now)] as const));
  const hits: Hit[] = [];
  const hasMarket = markets.length > 0 || unlocated.length > 0;
  if (!hasMarket && liquidity.errors.length === 0 && !options.tradedElsewhere) {
    hits.push({
      code: 'MARKET_NONE',
      strength: 1,
      evidence: {
        dexes_checked: Object.values(DEX_NAMES),
        candidates_checked: liquidity.discovery.candidates.length,
      },
      reason: 'no pool trading it was found on the DEXes checked',
    });
  }
  const thin = thinHit(priced);
  if (thin) hits.push(thin);
  for (const [m, split] of splits) if (split) hits.push(...lpHits(m, split));
  const unavailable = unavailableHit(liquidity, priced, unlocated);
  if (unavailable) hits.push(unavailable);
  const owners = assessPositions(liquidity.positions);
  hits.push(...owners.hits);
  const trade = markets.length
    ? assessTrade({
        markets,
        accounts: liquidity.reads.accounts,
        nowSeconds: now,
        solUsd: options.solUsd,
        transferFee: options.transferFee ?? null,
      })
    : null;
  if (trade) hits.push(...trade.hits);
  const named = new Map<string, string>();
  for (const m of markets)
    named.set(
      m.baseVault,
      m.dex === 'pumpfun-curve' ? 'pump.fun bonding curve' : `pool vault: ${DEX_NAMES[m.dex]} pool ${m.pool}`,
    );
  for (const v of unlocated) named.set(v.tokenAccount, `pool vault: ${DEX_NAMES[v.dex]} (pool not located)`);
  const summary = summaryOf(priced, splits, liquidity, unlocated, owners);
  return { hits, summary: trade ? { ...summary, ...trade.summary } : summary, named };
}
