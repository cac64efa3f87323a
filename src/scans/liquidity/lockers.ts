/**
 * Who controls an LP holder's tokens (pure): burned, a wallet, a recognised locker, or a program
 * address we cannot vouch for. A locker is recognised by what owns the holder's owner account —
 * its state account, read in the liquidity round after the LP holders' token accounts:
 *   - Jupiter Lock (LocpQguc…): the owner is a `VestingEscrow` owned by the program and the LP sits
 *     in its token account; its schedule says when the LP unlocks, and its cancel mode whether the
 *     creator can take the LP back at any time (a cancel sends what is still locked to the creator).
 *   - Meteora DAMM v1 lock escrow (Eo7WjKq6…): the owner is a `LockEscrow` owned by the DAMM v1
 *     program naming the holder as its escrow vault; the program never releases it (fees only).
 *   - Raydium LP lock (Burn & Earn): its CPMM lock authority, a fixed PDA, owns the LP itself.
 * Not recognisable by owner: Streamflow's escrow token account is its own authority (PDA
 * ["strm", metadata], streamflow-finance/timelock-crate src/token.rs), and the metadata address it
 * derives from is found only by getProgramAccounts on the Streamflow program; such LP, and LP under
 * any other program address, is `program` — shown, neither locked nor pullable.
 */
import type { Address } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import {
  decodeVestingEscrow,
  fullyUnlockedAt,
  minBig,
  nextUnlockAfter,
  scheduleCompletes,
  unlockedBy,
  type VestingEscrow,
} from '../../solana/decoders/jupiter-lock.js';
import { decodeLockEscrow } from '../../solana/decoders/meteora-lock-escrow.js';
import { decodeTokenAccount } from '../../solana/decoders/token-account.js';
import {
  INCINERATOR,
  JUPITER_LOCK_PROGRAM,
  METEORA_DAMM_V1_PROGRAM,
  RAYDIUM_CP_LOCK_AUTHORITY,
  RAYDIUM_LP_LOCK_PROGRAM,
} from '../../solana/programs.js';
import type { RawAccount } from '../token-facts/model.js';
import { UNLOCK_HORIZON_SECONDS } from './thresholds.js';

const HORIZON_DAYS = UNLOCK_HORIZON_SECONDS / 86_400;

export interface Locker {
  readonly name: string;
  readonly program: Address;
}

const JUPITER_LOCK: Locker = { name: 'Jupiter Lock', program: JUPITER_LOCK_PROGRAM };
const METEORA_LOCK_ESCROW: Locker = {
  name: 'Meteora DAMM v1 lock escrow',
  program: METEORA_DAMM_V1_PROGRAM,
};
/** Lock authorities recognised by their own address (fixed PDAs that hold the LP). */
const FIXED_LOCK_AUTHORITIES: ReadonlyMap<Address, Locker> = new Map([
  [RAYDIUM_CP_LOCK_AUTHORITY, { name: 'Raydium LP lock (Burn & Earn)', program: RAYDIUM_LP_LOCK_PROGRAM }],
]);

/** An LP token account, decoded. */
export interface LpHolder {
  readonly address: Address;
  readonly mint: Address;
  readonly owner: Address;
  readonly amount: bigint;
}

export type LpHolding =
  | { readonly kind: 'burned' }
  | { readonly kind: 'wallet' }
  | {
      readonly kind: 'locked';
      readonly locker: Locker;
      /** LP units that can leave the lock within the horizon, and to whom. */
      readonly pullable: bigint;
      readonly pullableBy: Address | null;
      readonly why: string | null;
      /**
       * Unix seconds: the next release after the scan (null: nothing more releases), and the last
       * (null: never, as for periods with no length).
       */
      readonly unlocksAt: number | null;
      readonly fullyUnlocksAt: number | null;
    }
  | { readonly kind: 'program'; readonly program: Address | null; readonly why: string };

export function lpHolderOf(address: Address, account: RawAccount | null | undefined): LpHolder | null {
  if (!account) return null;
  const decoded = decodeTokenAccount(account.data, account.owner);
  return decoded.ok ? { address, ...decoded.value } : null;
}

/** An owner worth reading: a program address that is not already known by its own address. */
function ownerNeedsRead(holder: LpHolder): boolean {
  const { owner } = holder;
  return (
    owner !== INCINERATOR &&
    owner !== holder.address &&
    !FIXED_LOCK_AUTHORITIES.has(owner) &&
    !isOnCurveAddress(owner)
  );
}

/** The owner accounts to read for LP holders already read (none for wallets, burns, fixed lockers). */
export function lockerOwnersToRead(
  holders: readonly { address: Address; account: RawAccount | null | undefined }[],
): Address[] {
  return holders.flatMap(({ address, account }) => {
    const holder = lpHolderOf(address, account);
    return holder && ownerNeedsRead(holder) ? [holder.owner] : [];
  });
}

/** The schedule can be claimed in full by `at`. */
function completesBy(e: VestingEscrow, at: bigint): boolean {
  return scheduleCompletes(e) && fullyUnlockedAt(e) <= at;
}

function jupiterHolding(holder: LpHolder, ownerAccount: RawAccount, nowSeconds: number): LpHolding | null {
  const escrow = decodeVestingEscrow(ownerAccount.data);
  if (!escrow.ok || escrow.value.tokenMint !== holder.mint) return null;
  const e = escrow.value;
  // A cancelled escrow releases nothing more: the cancel sent what was locked to its creator.
  const cancelled = e.cancelledAt !== 0n;
  const now = BigInt(Math.floor(nowSeconds));
  const next = cancelled ? null : nextUnlockAfter(e, now);
  const times = {
    unlocksAt: next === null ? null : Number(next),
    fullyUnlocksAt: !cancelled && scheduleCompletes(e) ? Number(fullyUnlockedAt(e)) : null,
  };
  const base = { kind: 'locked', locker: JUPITER_LOCK, ...times } as const;
  if (cancelled || e.cancelMode !== 0) {
    const why = cancelled
      ? 'the escrow was cancelled'
      : 'the escrow can be cancelled, which sends the LP still locked to its creator';
    return { ...base, pullable: holder.amount, pullableBy: e.creator, why };
  }
  const horizon = now + BigInt(UNLOCK_HORIZON_SECONDS);
  const scheduled = e.cliffUnlockAmount + e.numberOfPeriod * e.amountPerPeriod - e.totalClaimedAmount;
  if (holder.amount > scheduled && completesBy(e, horizon)) {
    // Once the schedule is fully claimed, close_vesting_escrow (jup-lock 0.3.1) sends the escrow's
    // whole balance to its creator: LP sent to a spent escrow, beyond its schedule, is no lock.
    const why = `it holds more than its schedule, which completes within ${HORIZON_DAYS} days; then the creator can close the escrow and take the rest`;
    return { ...base, pullable: holder.amount, pullableBy: e.creator, why };
  }
  const released = unlockedBy(e, horizon) - e.totalClaimedAmount;
  const pullable = released <= 0n ? 0n : minBig(released, holder.amount);
  const why = pullable > 0n ? `its schedule releases it to the recipient within ${HORIZON_DAYS} days` : null;
  return { ...base, pullable, pullableBy: pullable > 0n ? e.recipient : null, why };
}

function meteoraHolding(holder: LpHolder, ownerAccount: RawAccount): LpHolding | null {
  const escrow = decodeLockEscrow(ownerAccount.data);
  if (!escrow.ok || escrow.value.escrowVault !== holder.address) return null;
  return lockedForGood(METEORA_LOCK_ESCROW);
}

/** LP a locker never releases (fees only): no date, nobody can pull it. */
function lockedForGood(locker: Locker): LpHolding {
  return {
    kind: 'locked',
    locker,
    pullable: 0n,
    pullableBy: null,
    why: null,
    unlocksAt: null,
    fullyUnlocksAt: null,
  };
}

function programHolding(holder: LpHolder, ownerAccount: RawAccount | null | undefined): LpHolding {
  if (holder.owner === holder.address)
    return {
      kind: 'program',
      program: null,
      why: 'a token account that is its own authority (as a Streamflow escrow is): its program is found only by getProgramAccounts',
    };
  if (ownerAccount === undefined) return { kind: 'program', program: null, why: 'its owner was not read' };
  if (ownerAccount === null)
    return { kind: 'program', program: null, why: 'a program address with no account' };
  return {
    kind: 'program',
    program: ownerAccount.owner,
    why: 'a program address of a program not known as a locker',
  };
}

/** Where one LP holder's tokens stand, given its owner account (undefined: not read). */
export function classifyLpHolder(
  holder: LpHolder,
  ownerAccount: RawAccount | null | undefined,
  nowSeconds: number,
): LpHolding {
  if (holder.owner === INCINERATOR) return { kind: 'burned' };
  const fixed = FIXED_LOCK_AUTHORITIES.get(holder.owner);
  if (fixed) return lockedForGood(fixed);
  if (isOnCurveAddress(holder.owner)) return { kind: 'wallet' };
  const byProgram =
    ownerAccount?.owner === JUPITER_LOCK_PROGRAM
      ? jupiterHolding(holder, ownerAccount, nowSeconds)
      : ownerAccount?.owner === METEORA_DAMM_V1_PROGRAM
        ? meteoraHolding(holder, ownerAccount)
        : null;
  return byProgram ?? programHolding(holder, ownerAccount);
}
