/**
 * Meteora DAMM v1 (dynamic AMM, program Eo7WjKq6…) `Pool`, from the published IDL
 * (MeteoraAg/damm-v1-sdk, idl.ts `pool`): lp_mint, token_a_mint, token_b_mint, a_vault, b_vault,
 * a_vault_lp, b_vault_lp, a_vault_lp_bump u8, enabled bool, … , and `total_locked_lp` after the
 * fees and the stake key. No real account was found in a public fixture: the decoder is tested on
 * bytes built from that layout. Reserves sit in Meteora's shared vaults (the pool holds vault LP),
 * so the quote depth needs the vault accounts too.
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, u8At, u64At } from './pool-fields.js';
import { POOL_DISCRIMINATOR } from './pumpswap-pool.js';
import { type DecodeResult, decoded } from './result.js';

/** Up to `total_locked_lp` (8 + 7×32 + 2 + 2×32 + 8 + 24 + 32 + 1 + 32 + 8). */
export const DAMM_V1_MIN_SIZE = 403;

export interface DammV1Pool {
  readonly lpMint: Address;
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  readonly vaultLpA: Address;
  readonly vaultLpB: Address;
  readonly enabled: boolean;
  /** LP locked in the pool's own lock escrows. */
  readonly totalLockedLp: bigint;
}

export function decodeDammV1Pool(data: Uint8Array): DecodeResult<DammV1Pool> {
  const checked = checkLayout(data, POOL_DISCRIMINATOR, DAMM_V1_MIN_SIZE, 'Meteora DAMM v1 Pool');
  if (!checked.ok) return checked;
  return decoded({
    lpMint: addressAt(data, 8),
    mintA: addressAt(data, 40),
    mintB: addressAt(data, 72),
    vaultA: addressAt(data, 104),
    vaultB: addressAt(data, 136),
    vaultLpA: addressAt(data, 168),
    vaultLpB: addressAt(data, 200),
    enabled: u8At(data, 233) === 1,
    totalLockedLp: u64At(data, 395),
  });
}
