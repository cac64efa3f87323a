/**
 * Raydium CLMM `PersonalPositionState` (program CAMMCzo5…), 281 bytes, Borsh (raydium-io/
 * raydium-clmm programs/amm/src/states/personal_position.rs). Checked against a real position
 * (fixture raydium-clmm-personal-position-*.json). Whoever holds the one token of `nft_mint` owns it.
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, i32At, u128At } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

/** sha256("account:PersonalPositionState")[0..8]. */
export const CLMM_PERSONAL_POSITION_DISCRIMINATOR: readonly number[] = [70, 111, 150, 126, 230, 15, 25, 117];
export const CLMM_PERSONAL_POSITION_SIZE = 281;
/** Bytes through liquidity: a getProgramAccounts dataSlice from 0 needs no more. */
export const CLMM_PERSONAL_POSITION_HEAD = 97;
/** Offset of `pool_id`, for a getProgramAccounts memcmp. */
export const CLMM_PERSONAL_POSITION_POOL_OFFSET = 41;

export interface ClmmPersonalPosition {
  readonly nftMint: Address;
  readonly pool: Address;
  readonly tickLower: number;
  readonly tickUpper: number;
  readonly liquidity: bigint;
}

export function decodeClmmPersonalPosition(data: Uint8Array): DecodeResult<ClmmPersonalPosition> {
  const checked = checkLayout(
    data,
    CLMM_PERSONAL_POSITION_DISCRIMINATOR,
    CLMM_PERSONAL_POSITION_SIZE,
    'Raydium CLMM PersonalPositionState',
  );
  if (!checked.ok) return checked;
  return decoded({
    nftMint: addressAt(data, 9),
    pool: addressAt(data, 41),
    tickLower: i32At(data, 73),
    tickUpper: i32At(data, 77),
    liquidity: u128At(data, 81),
  });
}
