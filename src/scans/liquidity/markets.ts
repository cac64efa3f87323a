/**
 * Pure: a pool account of one of the supported DEXes → the market it makes for a mint (which vault
 * holds the token, which the quote, the LP mint if the pool has one). Dispatch is by owner program:
 * layouts share discriminators (CPMM/CLMM "PoolState", PumpSwap/DAMM v1/DAMM v2 "Pool").
 */
import type { Address } from '@solana/kit';
import { decodeDammV1Pool } from '../../solana/decoders/meteora-damm-v1.js';
import { decodeDammV2Pool } from '../../solana/decoders/meteora-damm-v2.js';
import { decodeLbPair, lbPairPrice } from '../../solana/decoders/meteora-dlmm.js';
import { decodeWhirlpool } from '../../solana/decoders/orca-whirlpool.js';
import { decodeBondingCurve } from '../../solana/decoders/pump-bonding-curve.js';
import { decodePumpSwapPool } from '../../solana/decoders/pumpswap-pool.js';
import { decodeRaydiumAmmV4 } from '../../solana/decoders/raydium-amm-v4.js';
import { decodeRaydiumClmmPool } from '../../solana/decoders/raydium-clmm.js';
import { decodeRaydiumCpmmPool } from '../../solana/decoders/raydium-cpmm.js';
import {
  METEORA_DAMM_V1_PROGRAM,
  METEORA_DAMM_V2_POOL_AUTHORITY,
  METEORA_DAMM_V2_PROGRAM,
  METEORA_DLMM_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  RAYDIUM_CPMM_AUTHORITY,
  RAYDIUM_CPMM_PROGRAM,
} from '../../solana/programs.js';
import type { RawAccount } from '../token-facts/model.js';

export type Dex =
  | 'pumpswap'
  | 'raydium-amm-v4'
  | 'raydium-cpmm'
  | 'raydium-clmm'
  | 'meteora-dlmm'
  | 'meteora-damm-v1'
  | 'meteora-damm-v2'
  | 'orca-whirlpool'
  | 'pumpfun-curve';

export const DEX_NAMES: Readonly<Record<Dex, string>> = {
  pumpswap: 'PumpSwap',
  'raydium-amm-v4': 'Raydium AMM v4',
  'raydium-cpmm': 'Raydium CPMM',
  'raydium-clmm': 'Raydium CLMM',
  'meteora-dlmm': 'Meteora DLMM',
  'meteora-damm-v1': 'Meteora DAMM v1',
  'meteora-damm-v2': 'Meteora DAMM v2',
  'orca-whirlpool': 'Orca Whirlpool',
  'pumpfun-curve': 'pump.fun bonding curve',
};

/** Concentrated-liquidity pools: liquidity sits in positions (separate accounts), not an LP mint. */
export const CONCENTRATED: ReadonlySet<Dex> = new Set([
  'raydium-clmm',
  'meteora-dlmm',
  'orca-whirlpool',
  'meteora-damm-v2',
]);

/** Vault owners shared by every pool of a DEX: the vault shows a market, but not which pool. */
export const SHARED_VAULT_AUTHORITIES: ReadonlyMap<Address, Dex> = new Map<Address, Dex>([
  [RAYDIUM_AMM_V4_AUTHORITY, 'raydium-amm-v4'],
  [RAYDIUM_CPMM_AUTHORITY, 'raydium-cpmm'],
  [METEORA_DAMM_V2_POOL_AUTHORITY, 'meteora-damm-v2'],
]);

export interface Market {
  readonly dex: Dex;
  readonly pool: Address;
  readonly baseVault: Address;
  readonly quoteVault: Address;
  readonly quoteMint: Address;
  readonly lpMint: Address | null;
  /** LP units the pool counts as outstanding: LP burned with the token program stays counted here. */
  readonly poolLpSupply: bigint | null;
  /** Raw quote units per raw base unit from the pool's own price; null: from the vault balances. */
  readonly statePrice: number | null;
  /** Quote units in the vault that are not the liquidity providers' (protocol and partner fees, AMM v4 PnL). */
  readonly quoteNotLiquidity: bigint;
  /** Quote depth from the pool's own state (a bonding curve's real reserves); absent: the quote vault's balance. */
  readonly stateDepth?: bigint;
  /**
   * DAMM v1 only: baseVault and quoteVault are Meteora dynamic vaults (shared by every pool of the
   * mint), and the pool's reserve on each side is what its vault-LP account (baseLp, quoteLp) is worth.
   */
  readonly dynamicVaults?: { readonly baseLp: Address; readonly quoteLp: Address };
}

interface Sides {
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
}

const Q64 = 2 ** 64;
const sqrtPrice = (x64: bigint) => (Number(x64) / Q64) ** 2;

function orient(
  dex: Dex,
  pool: Address,
  mint: Address,
  s: Sides,
  extra: { priceBPerA?: number; lpMint?: Address; lpSupply?: bigint; notLiquidity?: [bigint, bigint] },
): Market | null {
  const baseIsA = s.mintA === mint;
  if (!baseIsA && s.mintB !== mint) return null;
  const price = extra.priceBPerA;
  return {
    dex,
    pool,
    baseVault: baseIsA ? s.vaultA : s.vaultB,
    quoteVault: baseIsA ? s.vaultB : s.vaultA,
    quoteMint: baseIsA ? s.mintB : s.mintA,
    lpMint: extra.lpMint ?? null,
    poolLpSupply: extra.lpSupply ?? null,
    statePrice: price === undefined || price <= 0 ? null : baseIsA ? price : 1 / price,
    quoteNotLiquidity: extra.notLiquidity ? (baseIsA ? extra.notLiquidity[1] : extra.notLiquidity[0]) : 0n,
  };
}

/** The market `account` makes for `mint`, or null when it is no pool of a supported DEX trading it. */
export function marketOf(account: RawAccount, mint: Address): Market | null {
  const { data, address } = account;
  switch (account.owner) {
    case PUMPSWAP_PROGRAM: {
      const p = decodePumpSwapPool(data);
      if (!p.ok) return null;
      const v = p.value;
      const sides = {
        mintA: v.baseMint,
        mintB: v.quoteMint,
        vaultA: v.poolBaseTokenAccount,
        vaultB: v.poolQuoteTokenAccount,
      };
      return orient('pumpswap', address, mint, sides, { lpMint: v.lpMint, lpSupply: v.lpSupply });
    }
    case RAYDIUM_CPMM_PROGRAM: {
      const p = decodeRaydiumCpmmPool(data);
      if (!p.ok) return null;
      const v = p.value;
      return orient('raydium-cpmm', address, mint, v, {
        lpMint: v.lpMint,
        lpSupply: v.lpSupply,
        notLiquidity: [v.feesA, v.feesB],
      });
    }
    case RAYDIUM_AMM_V4_PROGRAM: {
      const p = decodeRaydiumAmmV4(data);
      if (!p.ok) return null;
      const v = p.value;
      return orient('raydium-amm-v4', address, mint, v, {
        lpMint: v.lpMint,
        lpSupply: v.lpSupply,
        notLiquidity: [v.pnlA, v.pnlB],
      });
    }
    case RAYDIUM_CLMM_PROGRAM: {
      const p = decodeRaydiumClmmPool(data);
      return p.ok
        ? orient('raydium-clmm', address, mint, p.value, { priceBPerA: sqrtPrice(p.value.sqrtPriceX64) })
        : null;
    }
    case ORCA_WHIRLPOOL_PROGRAM: {
      const p = decodeWhirlpool(data);
      return p.ok
        ? orient('orca-whirlpool', address, mint, p.value, { priceBPerA: sqrtPrice(p.value.sqrtPriceX64) })
        : null;
    }
    case METEORA_DLMM_PROGRAM: {
      const p = decodeLbPair(data);
      return p.ok
        ? orient('meteora-dlmm', address, mint, p.value, { priceBPerA: lbPairPrice(p.value) })
        : null;
    }
    case METEORA_DAMM_V2_PROGRAM: {
      const p = decodeDammV2Pool(data);
      if (!p.ok) return null;
      return orient('meteora-damm-v2', address, mint, p.value, {
        priceBPerA: sqrtPrice(p.value.sqrtPriceX64),
        notLiquidity: [
          p.value.protocolFeeA + p.value.partnerFeeA,
          p.value.protocolFeeB + p.value.partnerFeeB,
        ],
      });
    }
    case METEORA_DAMM_V1_PROGRAM:
      return dammV1Market(account, mint);
    default:
      return null;
  }
}

/**
 * A pump.fun bonding curve as a market: the curve holds the token in `vault` (its token account) and
 * its SOL (or quote) in itself, so depth is its real quote reserves and price its virtual ones. No LP
 * mint: nobody can pull a curve's reserves. A complete curve trades nothing (the coin migrated).
 * The caller knows `account` is the mint's curve PDA; the curve's data does not name its mint.
 */
export function curveMarketOf(account: RawAccount, vault: Address): Market | null {
  if (account.owner !== PUMP_PROGRAM) return null;
  const decoded = decodeBondingCurve(account.data);
  if (!decoded.ok || decoded.value.complete) return null;
  const c = decoded.value;
  return {
    dex: 'pumpfun-curve',
    pool: account.address,
    baseVault: vault,
    quoteVault: account.address,
    quoteMint: c.quoteMint,
    lpMint: null,
    poolLpSupply: null,
    statePrice:
      c.virtualTokenReserves > 0n && c.virtualQuoteReserves > 0n
        ? Number(c.virtualQuoteReserves) / Number(c.virtualTokenReserves)
        : null,
    quoteNotLiquidity: 0n,
    stateDepth: c.realQuoteReserves,
  };
}

/** A DAMM v1 pool's market: its sides are dynamic vaults, priced from the pool's shares of them. */
function dammV1Market(account: RawAccount, mint: Address): Market | null {
  const p = decodeDammV1Pool(account.data);
  if (!p.ok) return null;
  const v = p.value;
  const market = orient('meteora-damm-v1', account.address, mint, v, { lpMint: v.lpMint });
  if (market === null) return null;
  const baseIsA = v.mintA === mint;
  return {
    ...market,
    dynamicVaults: {
      baseLp: baseIsA ? v.vaultLpA : v.vaultLpB,
      quoteLp: baseIsA ? v.vaultLpB : v.vaultLpA,
    },
  };
}
