/**
 * Raydium CLMM (program CAMMCzo5…) `PoolState`, 1544 bytes, zero-copy (raydium-io/raydium-clmm
 * programs/amm/src/states/pool.rs). Checked against a real pool (fixture raydium-clmm-pool-*.json).
 * Vaults are PDAs ["pool_vault", pool, mint] owned by the pool itself.
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, i32At, u8At, u16At, u128At } from './pool-fields.js';
import { CPMM_POOL_DISCRIMINATOR } from './raydium-cpmm.js';
import { type DecodeResult, decoded } from './result.js';

export const RAYDIUM_CLMM_POOL_SIZE = 1544;

export interface RaydiumClmmPool {
  readonly ammConfig: Address;
  readonly creator: Address;
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  readonly decimalsA: number;
  readonly decimalsB: number;
  readonly tickSpacing: number;
  /** Liquidity in range at the current price. */
  readonly liquidity: bigint;
  /** Q64.64 square root of the price of A in B (raw units). */
  readonly sqrtPriceX64: bigint;
  readonly tickCurrent: number;
}

export function decodeRaydiumClmmPool(data: Uint8Array): DecodeResult<RaydiumClmmPool> {
  // CLMM's PoolState shares its discriminator with CPMM's: the caller routes by owner first.
  const checked = checkLayout(
    data,
    CPMM_POOL_DISCRIMINATOR,
    RAYDIUM_CLMM_POOL_SIZE,
    'Raydium CLMM PoolState',
  );
  if (!checked.ok) return checked;
  return decoded({
    ammConfig: addressAt(data, 9),
    creator: addressAt(data, 41),
    mintA: addressAt(data, 73),
    mintB: addressAt(data, 105),
    vaultA: addressAt(data, 137),
    vaultB: addressAt(data, 169),
    decimalsA: u8At(data, 233),
    decimalsB: u8At(data, 234),
    tickSpacing: u16At(data, 235),
    liquidity: u128At(data, 237),
    sqrtPriceX64: u128At(data, 253),
    tickCurrent: i32At(data, 269),
  });
}

/** sha256("account:AmmConfig")[0..8], shared with CPMM's AmmConfig: route by owner. */
export const AMM_CONFIG_DISCRIMINATOR: readonly number[] = [218, 244, 33, 104, 203, 203, 43, 111];

/** A CLMM `AmmConfig`'s trade fee rate over 1e6 (bump u8, index u16, owner, protocol_fee_rate u32, trade_fee_rate u32 at 47). */
export function decodeClmmTradeFeeRate(data: Uint8Array): DecodeResult<number> {
  const checked = checkLayout(data, AMM_CONFIG_DISCRIMINATOR, 51, 'Raydium CLMM AmmConfig');
  if (!checked.ok) return checked;
  return decoded(new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(47, true));
}
