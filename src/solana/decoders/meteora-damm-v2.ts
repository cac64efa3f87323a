/**
 * Meteora DAMM v2 (cp-amm, program cpamdpZC…) `Pool`, 1112 bytes, zero-copy (MeteoraAg/damm-v2
 * programs/cp-amm/src/state/pool.rs). Checked against the real pool 6CXXieC3… (fixture
 * meteora-damm-v2-pool-6CXXieC3.json). Liquidity is held in position NFTs, not an LP mint; the pool
 * itself counts the liquidity locked for ever (`permanent_lock_liquidity`).
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, u8At, u128At } from './pool-fields.js';
import { POOL_DISCRIMINATOR } from './pumpswap-pool.js';
import { type DecodeResult, decoded } from './result.js';

export const DAMM_V2_POOL_SIZE = 1112;

export interface DammV2Pool {
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  readonly liquidity: bigint;
  /** Q64.64 square root of the price of A in B (raw units). */
  readonly sqrtPriceX64: bigint;
  /** 0 = enabled. */
  readonly status: number;
  readonly permanentLockLiquidity: bigint;
  readonly creator: Address;
}

export function decodeDammV2Pool(data: Uint8Array): DecodeResult<DammV2Pool> {
  // "account:Pool" is PumpSwap's discriminator too: the caller routes by owner first.
  const checked = checkLayout(data, POOL_DISCRIMINATOR, DAMM_V2_POOL_SIZE, 'Meteora DAMM v2 Pool');
  if (!checked.ok) return checked;
  return decoded({
    mintA: addressAt(data, 168),
    mintB: addressAt(data, 200),
    vaultA: addressAt(data, 232),
    vaultB: addressAt(data, 264),
    liquidity: u128At(data, 360),
    sqrtPriceX64: u128At(data, 456),
    status: u8At(data, 481),
    permanentLockLiquidity: u128At(data, 552),
    creator: addressAt(data, 648),
  });
}
