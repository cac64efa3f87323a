/**
 * Orca Whirlpool `Position` (program whirLbMi…), 216 bytes, Borsh (orca-so/whirlpools programs/
 * whirlpool/src/state/position.rs). Checked against a real position (fixture
 * orca-whirlpool-position-*.json). Whoever holds the one token of `position_mint` owns it (for a
 * bundled position, the bundle's mint).
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, i32At, u128At } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

/** sha256("account:Position")[0..8] (Meteora DLMM's legacy `Position` has the same name and bytes). */
export const WHIRLPOOL_POSITION_DISCRIMINATOR: readonly number[] = [170, 188, 143, 228, 122, 64, 247, 208];
export const WHIRLPOOL_POSITION_SIZE = 216;
/** Bytes through tick_upper_index: a getProgramAccounts dataSlice from 0 needs no more. */
export const WHIRLPOOL_POSITION_HEAD = 96;
/** Offset of `whirlpool`, for a getProgramAccounts memcmp. */
export const WHIRLPOOL_POSITION_POOL_OFFSET = 8;

export interface WhirlpoolPosition {
  readonly whirlpool: Address;
  readonly positionMint: Address;
  readonly liquidity: bigint;
  readonly tickLower: number;
  readonly tickUpper: number;
}

export function decodeWhirlpoolPosition(data: Uint8Array): DecodeResult<WhirlpoolPosition> {
  const checked = checkLayout(
    data,
    WHIRLPOOL_POSITION_DISCRIMINATOR,
    WHIRLPOOL_POSITION_SIZE,
    'Orca Whirlpool Position',
  );
  if (!checked.ok) return checked;
  return decoded({
    whirlpool: addressAt(data, 8),
    positionMint: addressAt(data, 40),
    liquidity: u128At(data, 72),
    tickLower: i32At(data, 88),
    tickUpper: i32At(data, 92),
  });
}
