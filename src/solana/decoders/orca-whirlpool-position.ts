/**
 * Orca Whirlpool `Position` (program whirLbMi…), 216 bytes, Borsh (orca-so/whirlpools programs/
 * whirlpool/src/state/position.rs). Checked against a real position (fixture
 * orca-whirlpool-position-*.json). Whoever holds the one token of `position_mint` owns it (for a
 * bundled position, the bundle's mint).
 */
import type { Address } from '@solana/kit';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
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

/** Position's fields through tick_upper_index; fee and reward trackers after them are not read. */
export const WHIRLPOOL_POSITION_LAYOUT = layoutCodec(
  WHIRLPOOL_POSITION_SIZE,
  WHIRLPOOL_POSITION_DISCRIMINATOR,
  {
    whirlpool: [WHIRLPOOL_POSITION_POOL_OFFSET, field.address],
    positionMint: [40, field.address],
    liquidity: [72, field.u128],
    tickLowerIndex: [88, field.i32],
    tickUpperIndex: [92, field.i32],
  },
);

export function decodeWhirlpoolPosition(data: Uint8Array): DecodeResult<WhirlpoolPosition> {
  const checked = checkLayout(
    data,
    WHIRLPOOL_POSITION_DISCRIMINATOR,
    WHIRLPOOL_POSITION_SIZE,
    'Orca Whirlpool Position',
  );
  if (!checked.ok) return checked;
  const position = WHIRLPOOL_POSITION_LAYOUT.decode(data);
  return decoded({
    whirlpool: position.whirlpool,
    positionMint: position.positionMint,
    liquidity: position.liquidity,
    tickLower: position.tickLowerIndex,
    tickUpper: position.tickUpperIndex,
  });
}
