/**
 * Orca `Whirlpool` (program whirLbMi…), 653 bytes (orca-so/whirlpools programs/whirlpool/src/state/
 * whirlpool.rs). Checked against a real pool (fixture orca-whirlpool-*.json). The vaults are token
 * accounts whose owner is the Whirlpool itself.
 */
import type { Address } from '@solana/kit';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

const { address, u16, u128 } = field;

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

/** The Whirlpool's fields the scan and the sandbox use (names as in whirlpool.rs), at their offsets. */
export const WHIRLPOOL_LAYOUT = layoutCodec(WHIRLPOOL_SIZE, WHIRLPOOL_DISCRIMINATOR, {
  whirlpoolsConfig: [8, address],
  whirlpoolBump: [40, field.u8],
  tickSpacing: [41, u16],
  feeTierIndexSeed: [43, u16],
  feeRate: [45, u16],
  liquidity: [49, u128],
  sqrtPrice: [65, u128],
  tickCurrentIndex: [81, field.i32],
  tokenMintA: [101, address],
  tokenVaultA: [133, address],
  tokenMintB: [181, address],
  tokenVaultB: [213, address],
});

export function decodeWhirlpool(data: Uint8Array): DecodeResult<Whirlpool> {
  const checked = checkLayout(data, WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_SIZE, 'Orca Whirlpool');
  if (!checked.ok) return checked;
  const pool = WHIRLPOOL_LAYOUT.decode(data);
  return decoded({
    config: pool.whirlpoolsConfig,
    tickSpacing: pool.tickSpacing,
    feeRate: pool.feeRate,
    liquidity: pool.liquidity,
    sqrtPriceX64: pool.sqrtPrice,
    tickCurrent: pool.tickCurrentIndex,
    mintA: pool.tokenMintA,
    vaultA: pool.tokenVaultA,
    mintB: pool.tokenMintB,
    vaultB: pool.tokenVaultB,
  });
}
