/**
 * Locker state accounts in their published layouts (the offsets the decoders read): a Jupiter Lock
 * `VestingEscrow` (checked against a real escrow's bytes in test/solana/decoders/lockers.test.ts) and
 * a Meteora DAMM v1 `LockEscrow`, written directly (the sandbox does not run those programs).
 */
import type { Address } from '@solana/kit';
import { VESTING_ESCROW_LAYOUT } from '../../../solana/decoders/jupiter-lock.js';
import { LOCK_ESCROW_LAYOUT, LOCK_ESCROW_MIN_SIZE } from '../../../solana/decoders/meteora-lock-escrow.js';

export interface VestingEscrowFields {
  recipient: Address;
  tokenMint: Address;
  creator: Address;
  base: Address;
  escrowBump: number;
  /** 0: nobody can cancel; 1 creator, 2 recipient, 3 either. */
  cancelMode: number;
  cliffTime: bigint;
  frequency: bigint;
  cliffUnlockAmount: bigint;
  amountPerPeriod: bigint;
  numberOfPeriod: bigint;
  totalClaimedAmount?: bigint;
  cancelledAt?: bigint;
}

export function encodeVestingEscrow(f: VestingEscrowFields): Uint8Array {
  return new Uint8Array(
    VESTING_ESCROW_LAYOUT.encode({
      recipient: f.recipient,
      tokenMint: f.tokenMint,
      creator: f.creator,
      base: f.base,
      escrowBump: f.escrowBump,
      updateRecipientMode: 0,
      cancelMode: f.cancelMode,
      tokenProgramFlag: 0, // SPL Token
      cliffTime: f.cliffTime,
      frequency: f.frequency,
      cliffUnlockAmount: f.cliffUnlockAmount,
      amountPerPeriod: f.amountPerPeriod,
      numberOfPeriod: f.numberOfPeriod,
      totalClaimedAmount: f.totalClaimedAmount ?? 0n,
      vestingStartTime: f.cliffTime,
      cancelledAt: f.cancelledAt ?? 0n,
    }),
  );
}

export interface LockEscrowFields {
  pool: Address;
  owner: Address;
  escrowVault: Address;
  bump: number;
  totalLockedAmount: bigint;
}

/** After total_locked_amount: lp_per_token u128, unclaimed_fee_pending, a_fee, b_fee (u64), padding [u8; 7]. */
const LOCK_ESCROW_SIZE = LOCK_ESCROW_MIN_SIZE + 16 + 3 * 8 + 7;

export function encodeLockEscrow(f: LockEscrowFields): Uint8Array {
  const data = new Uint8Array(LOCK_ESCROW_SIZE);
  data.set(LOCK_ESCROW_LAYOUT.encode(f));
  return data;
}
