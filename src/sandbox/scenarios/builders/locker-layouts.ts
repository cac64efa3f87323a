/**
 * Locker state accounts in their published layouts (the offsets the decoders read): a Jupiter Lock
 * `VestingEscrow` (checked against a real escrow's bytes in test/solana/decoders/lockers.test.ts) and
 * a Meteora DAMM v1 `LockEscrow`, written directly (the sandbox does not run those programs).
 */
import type { Address } from '@solana/kit';
import { VESTING_ESCROW_DISCRIMINATOR, VESTING_ESCROW_SIZE } from '../../../solana/decoders/jupiter-lock.js';
import { LOCK_ESCROW_DISCRIMINATOR } from '../../../solana/decoders/meteora-lock-escrow.js';
import { concatBytes, pubkey, u8, u64 } from './bytes.js';

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
  const head = concatBytes(
    Uint8Array.from(VESTING_ESCROW_DISCRIMINATOR),
    pubkey(f.recipient),
    pubkey(f.tokenMint),
    pubkey(f.creator),
    pubkey(f.base),
    u8(f.escrowBump),
    u8(0), // update_recipient_mode
    u8(f.cancelMode),
    u8(0), // token_program_flag: SPL Token
    new Uint8Array(4),
    u64(f.cliffTime),
    u64(f.frequency),
    u64(f.cliffUnlockAmount),
    u64(f.amountPerPeriod),
    u64(f.numberOfPeriod),
    u64(f.totalClaimedAmount ?? 0n),
    u64(f.cliffTime), // vesting_start_time
    u64(f.cancelledAt ?? 0n),
  );
  const out = new Uint8Array(VESTING_ESCROW_SIZE);
  out.set(head);
  return out;
}

export interface LockEscrowFields {
  pool: Address;
  owner: Address;
  escrowVault: Address;
  bump: number;
  totalLockedAmount: bigint;
}

/** LockEscrow: the fields above, lp_per_token u128, unclaimed_fee_pending, a_fee, b_fee (u64), padding [u8; 7]. */
export function encodeLockEscrow(f: LockEscrowFields): Uint8Array {
  return concatBytes(
    Uint8Array.from(LOCK_ESCROW_DISCRIMINATOR),
    pubkey(f.pool),
    pubkey(f.owner),
    pubkey(f.escrowVault),
    u8(f.bump),
    u64(f.totalLockedAmount),
    new Uint8Array(16 + 3 * 8 + 7),
  );
}
