/**
 * Jupiter Lock (program LocpQguc…, jup-ag/jup-lock) `VestingEscrow`, from the published source
 * (programs/locker/src/state/vesting_escrow.rs, zero-copy, INIT_SPACE 288 after the 8-byte
 * discriminator): recipient, token_mint, creator, base (4 × 32), escrow_bump, update_recipient_mode,
 * cancel_mode, token_program_flag (4 × u8), 4 bytes padding, then cliff_time, frequency,
 * cliff_unlock_amount, amount_per_period, number_of_period, total_claimed_amount,
 * vesting_start_time, cancelled_at (8 × u64). The locked tokens sit in the escrow's associated token
 * account. Tested on a real escrow's bytes (fixtures/mainnet/PROVENANCE.md).
 */
import { type Address, getAddressEncoder } from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { JUPITER_LOCK_PROGRAM } from '../programs.js';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

const { address: addressCodec, u8, u64 } = field;

/** sha256("account:VestingEscrow")[0..8]. */
export const VESTING_ESCROW_DISCRIMINATOR = [244, 119, 183, 4, 73, 116, 135, 195] as const;
export const VESTING_ESCROW_SIZE = 8 + 288;

export interface VestingEscrow {
  readonly recipient: Address;
  readonly tokenMint: Address;
  readonly creator: Address;
  readonly base: Address;
  /** Who may cancel (0 nobody, 1 creator, 2 recipient, 3 either): a cancel sends what is still locked to the creator. */
  readonly cancelMode: number;
  readonly cliffTime: bigint;
  readonly frequency: bigint;
  readonly cliffUnlockAmount: bigint;
  readonly amountPerPeriod: bigint;
  readonly numberOfPeriod: bigint;
  readonly totalClaimedAmount: bigint;
  readonly vestingStartTime: bigint;
  readonly cancelledAt: bigint;
}

/** VestingEscrow (names as in the program), Borsh: every field up to `cancelled_at`. */
export const VESTING_ESCROW_LAYOUT = layoutCodec(VESTING_ESCROW_SIZE, VESTING_ESCROW_DISCRIMINATOR, {
  recipient: [8, addressCodec],
  tokenMint: [40, addressCodec],
  creator: [72, addressCodec],
  base: [104, addressCodec],
  escrowBump: [136, u8],
  updateRecipientMode: [137, u8],
  cancelMode: [138, u8],
  tokenProgramFlag: [139, u8],
  cliffTime: [144, u64],
  frequency: [152, u64],
  cliffUnlockAmount: [160, u64],
  amountPerPeriod: [168, u64],
  numberOfPeriod: [176, u64],
  totalClaimedAmount: [184, u64],
  vestingStartTime: [192, u64],
  cancelledAt: [200, u64],
});

export function decodeVestingEscrow(data: Uint8Array): DecodeResult<VestingEscrow> {
  const checked = checkLayout(
    data,
    VESTING_ESCROW_DISCRIMINATOR,
    VESTING_ESCROW_SIZE,
    'Jupiter Lock VestingEscrow',
  );
  if (!checked.ok) return checked;
  const escrow = VESTING_ESCROW_LAYOUT.decode(data);
  return decoded({
    recipient: escrow.recipient,
    tokenMint: escrow.tokenMint,
    creator: escrow.creator,
    base: escrow.base,
    cancelMode: escrow.cancelMode,
    cliffTime: escrow.cliffTime,
    frequency: escrow.frequency,
    cliffUnlockAmount: escrow.cliffUnlockAmount,
    amountPerPeriod: escrow.amountPerPeriod,
    numberOfPeriod: escrow.numberOfPeriod,
    totalClaimedAmount: escrow.totalClaimedAmount,
    vestingStartTime: escrow.vestingStartTime,
    cancelledAt: escrow.cancelledAt,
  });
}

/** Math.min for bigints (it takes numbers only). */
export const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The program's `get_max_unlocked_amount`: what the schedule has released by `at` (unix seconds). */
export function unlockedBy(escrow: VestingEscrow, at: bigint): bigint {
  if (at < escrow.cliffTime) return 0n;
  if (escrow.frequency === 0n) return escrow.cliffUnlockAmount;
  const periods = (at - escrow.cliffTime) / escrow.frequency;
  return escrow.cliffUnlockAmount + minBig(periods, escrow.numberOfPeriod) * escrow.amountPerPeriod;
}

/** When the last release happens (unix seconds): the last period's end, or the cliff when periods release nothing. */
export function fullyUnlockedAt(escrow: VestingEscrow): bigint {
  return escrow.frequency === 0n || escrow.amountPerPeriod * escrow.numberOfPeriod === 0n
    ? escrow.cliffTime
    : escrow.cliffTime + escrow.frequency * escrow.numberOfPeriod;
}

/** Whether the whole schedule can ever be claimed: with no period length, periods never release. */
export function scheduleCompletes(escrow: VestingEscrow): boolean {
  return escrow.frequency !== 0n || escrow.numberOfPeriod * escrow.amountPerPeriod === 0n;
}

/**
 * The first moment after `at` at which the schedule releases more (unix seconds), or null when it
 * releases nothing more: the cliff while it is ahead (the first period's end when the cliff
 * releases nothing), then each period's end.
 */
export function nextUnlockAfter(escrow: VestingEscrow, at: bigint): bigint | null {
  const { cliffTime, frequency, cliffUnlockAmount, amountPerPeriod, numberOfPeriod } = escrow;
  if (at < cliffTime && cliffUnlockAmount > 0n) return cliffTime;
  if (frequency === 0n || amountPerPeriod === 0n) return null;
  const period = at < cliffTime ? 1n : (at - cliffTime) / frequency + 1n;
  return period <= numberOfPeriod ? cliffTime + period * frequency : null;
}

/** The escrow PDA: seeds ["escrow", base] (instructions/escrow_instructions/create_vesting_escrow.rs). */
export async function findVestingEscrowAddress(base: Address): Promise<Address> {
  const [escrow] = await findProgramDerivedAddress({
    programAddress: JUPITER_LOCK_PROGRAM,
    seeds: ['escrow', getAddressEncoder().encode(base)],
  });
  return escrow;
}
