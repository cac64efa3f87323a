/**
 * Orca `Whirlpool` (program whirLbMi…), 653 bytes (orca-so/whirlpools programs/whirlpool/src/state/
 * whirlpool.rs). Checked against a real pool (fixture orca-whirlpool-*.json). The vaults are token
 * accounts whose owner is the Whirlpool itself.
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, i32At, u16At, u128At } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

/** sha256("account:Whirlpool")[0..8]. */
export const WHIRLPOOL_DISCRIMINATOR: readonly number[] = [63, 149, 209, 12, 225, 128, 99, 9];
export const WHIRLPOOL_SIZE = 653;

export interface Whirlpool {
  readonly config: Address;
  readonly tickSpacing: number;
  readonly feeRate: number;
  readonly liquidity: bigint;
  /** Q64.64 square root of the price of A in B (raw units). */
  readonly sqrtPriceX64: bigint;
  readonly tickCurrent: number;
  readonly mintA: Address;
  readonly vaultA: Address;
  readonly mintB: Address;
  readonly vaultB: Address;
}

export function decodeWhirlpool(data: Uint8Array): DecodeResult<Whirlpool> {
  const checked = checkLayout(data, WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_SIZE, 'Orca Whirlpool');
  if (!checked.ok) return checked;
  return decoded({
    config: addressAt(data, 8),
    tickSpacing: u16At(data, 41),
    feeRate: u16At(data, 45),
    liquidity: u128At(data, 49),
    sqrtPriceX64: u128At(data, 65),
    tickCurrent: i32At(data, 81),
    mintA: addressAt(data, 101),
    vaultA: addressAt(data, 133),
    mintB: addressAt(data, 181),
    vaultB: addressAt(data, 213),
  });
}
