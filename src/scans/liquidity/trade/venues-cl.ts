/**
 * Pure: the concentrated pools as venues — Orca Whirlpool and Raydium CLMM through the tick arrays
 * read around the current tick, Meteora DAMM v2 through its one price range, Meteora DLMM through
 * the bin arrays read around the active bin. Orientation: the pool's token A is the base when the
 * base vault is its vault A.
 */
import type { Address } from '@solana/kit';
import { decodeDammV2Pool } from '../../../solana/decoders/meteora-damm-v2.js';
import { decodeLbPair } from '../../../solana/decoders/meteora-dlmm.js';
import { BINS_PER_ARRAY, type Bin, decodeBinArray } from '../../../solana/decoders/meteora-dlmm-bin-array.js';
import { decodeWhirlpool } from '../../../solana/decoders/orca-whirlpool.js';
import { decodeRaydiumClmmPool } from '../../../solana/decoders/raydium-clmm.js';
import type { DecodeResult } from '../../../solana/decoders/result.js';
import {
  decodeClmmTickArray,
  decodeWhirlpoolTickArray,
  type InitializedTick,
  type TickArray,
} from '../../../solana/decoders/tick-arrays.js';
import type { RawAccount } from '../../token-facts/model.js';
import type { Market } from '../markets.js';
import { type ArrayRef, clmmArrays, dlmmArrays, readRun, whirlpoolArrays } from './arrays.js';
import { binPrice, binSwap } from './bins.js';
import {
  type ConcentratedState,
  concentratedSwap,
  MAX_TICK,
  MIN_TICK,
  sqrtPriceAtTick,
} from './concentrated.js';
import { clmmFee, dlmmFee } from './fees.js';
import { type Fee, feeFraction, feeUnusable, type Unquotable, type Venue } from './model.js';

type Accounts = ReadonlyMap<Address, RawAccount | null>;
const Q64 = 2 ** 64;

function clVenue(m: Market, baseIsA: boolean, state: ConcentratedState): Venue {
  const p = (Number(state.sqrtPriceX64) / Q64) ** 2;
  return {
    market: m,
    spot: baseIsA ? p : 1 / p,
    fee: feeFraction(state.fee),
    buy: (quoteIn) => concentratedSwap(state, !baseIsA, quoteIn),
    sell: (baseIn) => concentratedSwap(state, baseIsA, baseIn),
  };
}

/** The initialized ticks of the arrays read around the current one, and the range they span. */
function tickRun(
  accounts: Accounts,
  arrays: readonly ArrayRef[],
  decode: (data: Uint8Array) => DecodeResult<TickArray>,
  pool: Address,
): { ticks: InitializedTick[]; lower: number; upper: number } | null {
  const parsed = new Map<Address, TickArray | null>();
  for (const a of arrays) {
    if (!accounts.has(a.address)) continue;
    const account = accounts.get(a.address);
    if (!account)
      parsed.set(a.address, null); // no such account: no initialized tick there
    else {
      const d = decode(account.data);
      if (d.ok && d.value.pool === pool && d.value.startTickIndex === a.first) parsed.set(a.address, d.value);
    }
  }
  const run = readRun(arrays, (a) => parsed.has(a.address));
  if (run === null) return null;
  const ticks = run.used.flatMap((a) => parsed.get(a.address)?.ticks ?? []);
  return { ticks, lower: Math.max(run.first, MIN_TICK), upper: Math.min(run.end, MAX_TICK) };
}

function tickedVenue(
  m: Market,
  accounts: Accounts,
  pool: {
    vaultA: Address;
    liquidity: bigint;
    sqrtPriceX64: bigint;
    tickCurrent: number;
    tickSpacing: number;
  },
  fee: Fee | null,
  kind: 'whirlpool' | 'clmm',
): Venue | Unquotable {
  if (fee === null || feeUnusable(fee)) return { market: m, why: 'its fee could not be read' };
  if (pool.tickCurrent < MIN_TICK || pool.tickCurrent > MAX_TICK || pool.tickSpacing <= 0)
    return { market: m, why: 'its current tick or tick spacing is one no pool holds' };
  const arrays =
    kind === 'whirlpool'
      ? whirlpoolArrays(m.pool, pool.tickCurrent, pool.tickSpacing)
      : clmmArrays(m.pool, pool.tickCurrent, pool.tickSpacing);
  const decode =
    kind === 'whirlpool'
      ? (d: Uint8Array) => decodeWhirlpoolTickArray(d, pool.tickSpacing)
      : (d: Uint8Array) => decodeClmmTickArray(d, pool.tickSpacing);
  const run = tickRun(accounts, arrays, decode, m.pool);
  if (run === null)
    return { market: m, why: 'the tick array at its current price was not read or does not parse' };
  const state = {
    sqrtPriceX64: pool.sqrtPriceX64,
    liquidity: pool.liquidity,
    ticks: run.ticks,
    lowerSqrtX64: sqrtPriceAtTick(run.lower),
    upperSqrtX64: sqrtPriceAtTick(run.upper),
    fee,
  };
  if (state.sqrtPriceX64 < state.lowerSqrtX64 || state.sqrtPriceX64 > state.upperSqrtX64)
    return { market: m, why: 'its price lies outside the tick arrays its current tick names' };
  return clVenue(m, m.baseVault === pool.vaultA, state);
}

export function whirlpoolVenue(m: Market, pool: RawAccount, accounts: Accounts): Venue | Unquotable {
  const p = decodeWhirlpool(pool.data);
  if (!p.ok) return { market: m, why: p.detail };
  return tickedVenue(m, accounts, p.value, { num: BigInt(p.value.feeRate), den: 1_000_000n }, 'whirlpool');
}

export function clmmVenue(m: Market, pool: RawAccount, accounts: Accounts): Venue | Unquotable {
  const p = decodeRaydiumClmmPool(pool.data);
  if (!p.ok) return { market: m, why: p.detail };
  return tickedVenue(m, accounts, p.value, clmmFee(accounts.get(p.value.ammConfig)), 'clmm');
}

/** DAMM v2: one range [sqrt_min, sqrt_max] of constant liquidity, its base fee as the cliff fee. */
export function dammV2Venue(m: Market, pool: RawAccount): Venue | Unquotable {
  const p = decodeDammV2Pool(pool.data);
  if (!p.ok) return { market: m, why: p.detail };
  const v = p.value;
  const fee = { num: v.cliffFeeNumerator, den: 1_000_000_000n };
  if (feeUnusable(fee)) return { market: m, why: 'its fee could not be read' };
  if (v.sqrtMinPriceX64 <= 0n || v.sqrtPriceX64 < v.sqrtMinPriceX64 || v.sqrtPriceX64 > v.sqrtMaxPriceX64)
    return { market: m, why: 'its price lies outside its own price range' };
  const state = {
    sqrtPriceX64: v.sqrtPriceX64,
    // cp-amm keeps liquidity in Q64.64 (an LP's liquidity is √(a·b) << 64).
    liquidity: v.liquidity >> 64n,
    ticks: [],
    lowerSqrtX64: v.sqrtMinPriceX64,
    upperSqrtX64: v.sqrtMaxPriceX64,
    fee,
  };
  return clVenue(m, m.baseVault === v.vaultA, state);
}

function binRun(accounts: Accounts, arrays: readonly ArrayRef[], pair: Address) {
  const parsed = new Map<Address, readonly Bin[]>();
  for (const a of arrays) {
    if (!accounts.has(a.address)) continue;
    const account = accounts.get(a.address);
    if (!account) parsed.set(a.address, []);
    else {
      const d = decodeBinArray(account.data);
      if (d.ok && d.value.pair === pair && Number(d.value.index) * BINS_PER_ARRAY === a.first)
        parsed.set(a.address, d.value.bins);
    }
  }
  const run = readRun(arrays, (a) => parsed.has(a.address));
  if (run === null) return null;
  const bins = new Map(run.used.flatMap((a) => parsed.get(a.address) ?? []).map((b) => [b.id, b] as const));
  return { bins, lowestId: run.first, highestId: run.end - 1 };
}

export function dlmmVenue(m: Market, pool: RawAccount, accounts: Accounts): Venue | Unquotable {
  const p = decodeLbPair(pool.data);
  if (!p.ok) return { market: m, why: p.detail };
  const run = binRun(accounts, dlmmArrays(m.pool, p.value.activeId), m.pool);
  if (run === null)
    return { market: m, why: 'the bin array at its active bin was not read or does not parse' };
  const state = { activeId: p.value.activeId, binStep: p.value.binStep, fee: dlmmFee(p.value), ...run };
  const baseIsX = m.baseVault === p.value.vaultA;
  const price = binPrice(p.value.binStep, p.value.activeId);
  return {
    market: m,
    spot: baseIsX ? price : 1 / price,
    fee: feeFraction(state.fee),
    buy: (quoteIn) => binSwap(state, !baseIsX, quoteIn),
    sell: (baseIn) => binSwap(state, baseIsX, baseIn),
  };
}
