/**
 * Account bytes for programs the sandbox does not run (pump.fun, PumpSwap, Squads) and for stand-in program
 * accounts at their real addresses. Each layout mirrors the decoder in src/solana/decoders that reads it
 * back; the scenario tests decode every one of them.
 */
import { type Address, address } from '@solana/kit';
import { CORAL_MULTISIG_CODEC } from '../../../solana/decoders/coral-multisig.js';
import {
  BONDING_CURVE_FIELD_END,
  BONDING_CURVE_LAYOUT,
} from '../../../solana/decoders/pump-bonding-curve.js';
import { PUMPSWAP_POOL_LAYOUT } from '../../../solana/decoders/pumpswap-pool.js';
import { SQUADS_MULTISIG_CODEC } from '../../../solana/decoders/squads.js';
import { SQUADS_V3_MS_CODEC } from '../../../solana/decoders/squads-v3.js';
import {
  findProgramDataAddress,
  PROGRAM_ACCOUNT_LAYOUT,
  PROGRAM_DATA_HEADER_LAYOUT,
} from '../../../solana/decoders/upgradeable-loader.js';
import { BPF_UPGRADEABLE_LOADER } from '../../../solana/programs.js';
import type { SandboxChain } from '../../chain/chain.js';
import { concatBytes } from './bytes.js';

/** The 115-byte bonding curve (creator, mayhem, cashback, quote mint), the layout most live curves have. */
export const BONDING_CURVE_SIZE = BONDING_CURVE_FIELD_END.quoteMint;
/** All zero bytes: pump writes a SOL-quoted curve's quote mint so. */
const ZERO_ADDRESS = address('11111111111111111111111111111111');

export interface BondingCurveFields {
  virtualTokenReserves: bigint;
  virtualQuoteReserves: bigint;
  realTokenReserves: bigint;
  realQuoteReserves: bigint;
  tokenTotalSupply: bigint;
  complete: boolean;
  creator: Address;
  isMayhemMode?: boolean;
  isCashbackCoin?: boolean;
  /** Default (all zero) = SOL-quoted, as pump writes it. */
  quoteMint?: Address;
}

export function encodeBondingCurve(curve: BondingCurveFields): Uint8Array {
  const newest = BONDING_CURVE_LAYOUT.encode({
    ...curve,
    isMayhemMode: curve.isMayhemMode ?? false,
    isCashbackCoin: curve.isCashbackCoin ?? false,
    quoteMint: curve.quoteMint ?? ZERO_ADDRESS,
    creatorFeeBps: 0n,
    canEditCreatorFee: false,
    isHolderReward: false,
  });
  return new Uint8Array(newest.subarray(0, BONDING_CURVE_SIZE));
}

/** PumpSwap pools are extended to 300 bytes; fields past `is_mayhem_mode` stay zero here. */
export const PUMPSWAP_POOL_SIZE = 300;

export interface PumpSwapPoolFields {
  poolBump: number;
  index: number;
  creator: Address;
  baseMint: Address;
  quoteMint: Address;
  lpMint: Address;
  poolBaseTokenAccount: Address;
  poolQuoteTokenAccount: Address;
  lpSupply: bigint;
  coinCreator: Address;
}

export function encodePumpSwapPool(pool: PumpSwapPoolFields): Uint8Array {
  const data = new Uint8Array(PUMPSWAP_POOL_SIZE);
  data.set(PUMPSWAP_POOL_LAYOUT.encode({ ...pool, isMayhemMode: false }));
  return data;
}

export interface SquadsMember {
  key: Address;
  /** Bit mask: 1 Initiate, 2 Vote, 4 Execute. */
  permissions: number;
}

export interface SquadsMultisigFields {
  createKey: Address;
  /** Null = autonomous (Pubkey::default on chain). */
  configAuthority: Address | null;
  threshold: number;
  timeLockSeconds: number;
  transactionIndex: bigint;
  staleTransactionIndex: bigint;
  rentCollector: Address | null;
  bump: number;
  members: readonly SquadsMember[];
}

/** Squads v4 `Multisig` (Anchor/Borsh), as @sqds/multisig lays it out. */
export function encodeSquadsMultisig(multisig: SquadsMultisigFields): Uint8Array {
  const { configAuthority, timeLockSeconds, ...rest } = multisig;
  return new Uint8Array(
    SQUADS_MULTISIG_CODEC.encode({
      ...rest,
      configAuthority: configAuthority ?? ZERO_ADDRESS,
      timeLock: timeLockSeconds,
      members: [...rest.members],
    }),
  );
}

/** Coral multisig `Multisig` (coral-xyz/multisig): owners, threshold, signer nonce, owner set number. */
export function encodeCoralMultisig(ms: {
  owners: readonly Address[];
  threshold: bigint;
  nonce: number;
  ownerSetSeqno: number;
}): Uint8Array {
  return new Uint8Array(CORAL_MULTISIG_CODEC.encode({ ...ms, owners: [...ms.owners] }));
}

/** Squads v3 `Ms` (squads-mpl). */
export function encodeSquadsV3Multisig(ms: {
  threshold: number;
  authorityIndex: number;
  createKey: Address;
  keys: readonly Address[];
}): Uint8Array {
  return new Uint8Array(
    SQUADS_V3_MS_CODEC.encode({
      ...ms,
      keys: [...ms.keys],
      transactionIndex: 0,
      msChangeIndex: 0,
      bump: 255,
      allowExternalExecute: false,
    }),
  );
}

export interface StandInProgram {
  programId: Address;
  programData: Address;
  deploySlot: bigint;
}

/**
 * An upgradeable program at an address whose keypair nobody has (pump.fun, PumpSwap, Squads): the
 * loader accounts are written directly — ProgramData first, since LiteSVM verifies the ELF when the
 * executable program account is set. `elf` is a stand-in body: the account SHAPE (owner, executable,
 * ProgramData link, authority, slot) is exact, the program's behaviour is not.
 */
export async function installStandInProgram(
  chain: SandboxChain,
  programId: Address,
  elf: Uint8Array,
  upgradeAuthority: Address | null,
): Promise<StandInProgram> {
  const programData = await findProgramDataAddress(programId);
  const deploySlot = chain.slot;
  const programDataBytes = concatBytes(
    new Uint8Array(PROGRAM_DATA_HEADER_LAYOUT.encode({ slot: deploySlot, upgradeAuthority })),
    elf,
  );
  chain.setAccount({
    address: programData,
    lamports: chain.minimumBalanceForRentExemption(programDataBytes.length),
    data: programDataBytes,
    owner: BPF_UPGRADEABLE_LOADER,
  });
  const programBytes = new Uint8Array(PROGRAM_ACCOUNT_LAYOUT.encode({ programData }));
  chain.setAccount({
    address: programId,
    lamports: chain.minimumBalanceForRentExemption(programBytes.length),
    data: programBytes,
    owner: BPF_UPGRADEABLE_LOADER,
    executable: true,
  });
  return { programId, programData, deploySlot };
}
