/**
 * Meteora DLMM `PositionV2` (program LBUZKhRx…), 8120 bytes, zero-copy (MeteoraAg/dlmm-sdk IDL:
 * lb_pair, owner, liquidity_shares [u128; 70], reward_infos, fee_infos, lower_bin_id,
 * upper_bin_id, …). Checked against a real position (fixture meteora-dlmm-position-v2-*.json).
 * The owner is stored in the position itself (no NFT). Newer positions can be longer (bins past
 * 70 live in an extension after these bytes): only the first 70 bins are read.
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, i32At, u128At } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

/** sha256("account:PositionV2")[0..8]. */
export const DLMM_POSITION_V2_DISCRIMINATOR: readonly number[] = [117, 176, 212, 199, 245, 180, 133, 182];
const DLMM_POSITION_V2_SIZE = 8120;
/** Offset of `lb_pair`, for a getProgramAccounts memcmp. */
export const DLMM_POSITION_V2_PAIR_OFFSET = 8;
const BINS = 70;
const SHARES_AT = 72;

export interface DlmmPosition {
  readonly lbPair: Address;
  readonly owner: Address;
  readonly lowerBinId: number;
  readonly upperBinId: number;
  /** The position's liquidity shares, one per bin from lowerBinId (at most 70). */
  readonly shares: readonly bigint[];
}

/** Bytes through the last liquidity share: what a getProgramAccounts dataSlice needs to read. */
export const DLMM_POSITION_V2_HEAD = SHARES_AT + 16 * BINS;

export interface DlmmPositionHead {
  readonly lbPair: Address;
  readonly owner: Address;
  /** Every one of the 70 share slots (those past the position's width are zero). */
  readonly shares: readonly bigint[];
}

/** The pair, owner and shares from the first DLMM_POSITION_V2_HEAD bytes (a dataSlice from 0). */
export function decodeDlmmPositionHead(data: Uint8Array): DecodeResult<DlmmPositionHead> {
  const checked = checkLayout(
    data,
    DLMM_POSITION_V2_DISCRIMINATOR,
    DLMM_POSITION_V2_HEAD,
    'Meteora DLMM PositionV2 head',
  );
  if (!checked.ok) return checked;
  return decoded({
    lbPair: addressAt(data, 8),
    owner: addressAt(data, 40),
    shares: Array.from({ length: BINS }, (_, i) => u128At(data, SHARES_AT + 16 * i)),
  });
}

export function decodeDlmmPosition(data: Uint8Array): DecodeResult<DlmmPosition> {
  const checked = checkLayout(
    data,
    DLMM_POSITION_V2_DISCRIMINATOR,
    DLMM_POSITION_V2_SIZE,
    'Meteora DLMM PositionV2',
  );
  if (!checked.ok) return checked;
  const lowerBinId = i32At(data, 7912);
  const upperBinId = i32At(data, 7916);
  const width = Math.max(0, Math.min(BINS, upperBinId - lowerBinId + 1));
  return decoded({
    lbPair: addressAt(data, 8),
    owner: addressAt(data, 40),
    lowerBinId,
    upperBinId,
    shares: Array.from({ length: width }, (_, i) => u128At(data, SHARES_AT + 16 * i)),
  });
}
