/**
 * Meteora DAMM v1 (program Eo7WjKq6…) `LockEscrow`, from the published IDL (MeteoraAg/damm-v1-sdk,
 * ts-client/src/amm/idl.ts `lockEscrow`): pool, owner, escrow_vault (3 × 32), bump u8,
 * total_locked_amount u64, lp_per_token u128, then fee counters. The LP sits in `escrow_vault`, a
 * token account the escrow owns; the program has no instruction that takes it out again (the owner
 * only claims fees), so LP there is locked for good. No real account was found in a public fixture:
 * the decoder is tested on bytes built from that layout.
 */
import type { Address } from '@solana/kit';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

const { address: addressCodec } = field;

/** sha256("account:LockEscrow")[0..8]. */
export const LOCK_ESCROW_DISCRIMINATOR = [190, 106, 121, 6, 200, 182, 21, 75] as const;
/** Up to total_locked_amount: 8 + 3 × 32 + 1 + 8. */
export const LOCK_ESCROW_MIN_SIZE = 113;

export interface LockEscrow {
  readonly pool: Address;
  readonly owner: Address;
  readonly escrowVault: Address;
  readonly totalLockedAmount: bigint;
}

/** LockEscrow's fields up to total_locked_amount (names as in the IDL). */
export const LOCK_ESCROW_LAYOUT = layoutCodec(LOCK_ESCROW_MIN_SIZE, LOCK_ESCROW_DISCRIMINATOR, {
  pool: [8, addressCodec],
  owner: [40, addressCodec],
  escrowVault: [72, addressCodec],
  bump: [104, field.u8],
  totalLockedAmount: [105, field.u64],
});

export function decodeLockEscrow(data: Uint8Array): DecodeResult<LockEscrow> {
  const checked = checkLayout(
    data,
    LOCK_ESCROW_DISCRIMINATOR,
    LOCK_ESCROW_MIN_SIZE,
    'Meteora DAMM v1 LockEscrow',
  );
  if (!checked.ok) return checked;
  const { bump: _bump, ...escrow } = LOCK_ESCROW_LAYOUT.decode(data);
  return decoded(escrow);
}
