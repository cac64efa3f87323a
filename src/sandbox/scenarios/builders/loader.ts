/**
 * BPF Upgradeable Loader (v3) instructions, bincode-encoded (u32 LE variant tag, then arguments), and the
 * deploy / upgrade / set-authority flows built from them. There is no @solana-program client for the
 * loader, and these few instructions are all the program scenarios need.
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  BUFFER_HEADER_SIZE,
  findProgramDataAddress,
  PROGRAM_ACCOUNT_SIZE,
} from '../../../solana/decoders/upgradeable-loader.js';
import { BPF_UPGRADEABLE_LOADER, SYSTEM_PROGRAM } from '../../../solana/programs.js';
import type { SandboxChain } from '../../chain/chain.js';
import { type Submitted, submit } from '../../wallets.js';
import { concatBytes, u32, u64 } from './bytes.js';

const SYSVAR_RENT = 'SysvarRent111111111111111111111111111111111' as Address;
const SYSVAR_CLOCK = 'SysvarC1ock11111111111111111111111111111111' as Address;
/** Bytes of ELF per Write: keeps a one-signer transaction under the 1232-byte packet limit. */
const WRITE_CHUNK = 900;

enum LoaderInstruction {
  InitializeBuffer = 0,
  Write = 1,
  DeployWithMaxDataLen = 2,
  Upgrade = 3,
  SetAuthority = 4,
}

function signerMeta(signer: KeyPairSigner, writable = false) {
  return {
    address: signer.address,
    role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
    signer,
  } as const;
}

const writable = (address: Address) => ({ address, role: AccountRole.WRITABLE }) as const;
const readonly = (address: Address) => ({ address, role: AccountRole.READONLY }) as const;

function initializeBuffer(buffer: Address, authority: Address): Instruction {
  return {
    programAddress: BPF_UPGRADEABLE_LOADER,
    accounts: [writable(buffer), readonly(authority)],
    data: u32(LoaderInstruction.InitializeBuffer),
  };
}

function write(buffer: Address, authority: KeyPairSigner, offset: number, bytes: Uint8Array): Instruction {
  return {
    programAddress: BPF_UPGRADEABLE_LOADER,
    accounts: [writable(buffer), signerMeta(authority)],
    data: concatBytes(u32(LoaderInstruction.Write), u32(offset), u64(BigInt(bytes.length)), bytes),
  };
}

/**
 * The transactions that create a buffer account and write `elf` into it with real Write
 * instructions, in order: the account and its initialization, then one Write per chunk.
 */
export function bufferTransactions(
  payer: KeyPairSigner,
  buffer: KeyPairSigner,
  authority: KeyPairSigner,
  elf: Uint8Array,
  rentLamports: bigint,
): Instruction[][] {
  const transactions: Instruction[][] = [
    [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: rentLamports,
        space: bufferSize(elf),
        programAddress: BPF_UPGRADEABLE_LOADER,
      }),
      initializeBuffer(buffer.address, authority.address),
    ],
  ];
  for (let offset = 0; offset < elf.length; offset += WRITE_CHUNK) {
    transactions.push([write(buffer.address, authority, offset, elf.subarray(offset, offset + WRITE_CHUNK))]);
  }
  return transactions;
}

/** Bytes of a buffer account holding `elf`. */
export function bufferSize(elf: Uint8Array): number {
  return BUFFER_HEADER_SIZE + elf.length;
}

async function writeBuffer(
  chain: SandboxChain,
  payer: KeyPairSigner,
  buffer: KeyPairSigner,
  authority: KeyPairSigner,
  elf: Uint8Array,
): Promise<void> {
  const rent = chain.minimumBalanceForRentExemption(bufferSize(elf));
  for (const instructions of bufferTransactions(payer, buffer, authority, elf, rent)) {
    await submit(chain, payer, instructions);
  }
}

export interface DeployedProgram {
  programId: Address;
  programData: Address;
  deploy: Submitted;
}

/** Deploys `elf` at `program`'s address with `authority` as upgrade authority (buffer, then DeployWithMaxDataLen). */
export async function deployProgram(
  chain: SandboxChain,
  payer: KeyPairSigner,
  program: KeyPairSigner,
  authority: KeyPairSigner,
  buffer: KeyPairSigner,
  elf: Uint8Array,
): Promise<DeployedProgram> {
  await writeBuffer(chain, payer, buffer, authority, elf);
  const programData = await findProgramDataAddress(program.address);
  const deploy = await submit(chain, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: program,
      lamports: chain.minimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE),
      space: PROGRAM_ACCOUNT_SIZE,
      programAddress: BPF_UPGRADEABLE_LOADER,
    }),
    {
      programAddress: BPF_UPGRADEABLE_LOADER,
      accounts: [
        signerMeta(payer, true),
        writable(programData),
        writable(program.address),
        writable(buffer.address),
        readonly(SYSVAR_RENT),
        readonly(SYSVAR_CLOCK),
        readonly(SYSTEM_PROGRAM),
        signerMeta(authority),
      ],
      // Room to grow, as `solana program deploy` leaves (2× the ELF).
      data: concatBytes(u32(LoaderInstruction.DeployWithMaxDataLen), u64(BigInt(elf.length * 2))),
    },
  ]);
  return { programId: program.address, programData, deploy };
}

/** Replaces the program's code from a freshly written buffer (loader Upgrade, signed by the authority). */
export async function upgradeProgram(
  chain: SandboxChain,
  payer: KeyPairSigner,
  programId: Address,
  authority: KeyPairSigner,
  buffer: KeyPairSigner,
  elf: Uint8Array,
): Promise<Submitted> {
  await writeBuffer(chain, payer, buffer, authority, elf);
  return submit(chain, payer, [
    upgradeInstruction(
      await findProgramDataAddress(programId),
      programId,
      buffer.address,
      payer.address,
      authority,
    ),
  ]);
}

/** Loader Upgrade: the program's code from `buffer`, whose lamports go to `spill`; signed by the authority. */
export function upgradeInstruction(
  programData: Address,
  programId: Address,
  buffer: Address,
  spill: Address,
  authority: KeyPairSigner,
): Instruction {
  return {
    programAddress: BPF_UPGRADEABLE_LOADER,
    accounts: [
      writable(programData),
      writable(programId),
      writable(buffer),
      writable(spill),
      readonly(SYSVAR_RENT),
      readonly(SYSVAR_CLOCK),
      signerMeta(authority),
    ],
    data: u32(LoaderInstruction.Upgrade),
  };
}

/**
 * Loader SetAuthority on a program's ProgramData: hands upgrades to `newAuthority` (which need not sign,
 * as with `solana program set-upgrade-authority --skip-new-upgrade-authority-signer-check`), or with
 * `null` makes the program immutable for good.
 */
export async function setUpgradeAuthority(
  chain: SandboxChain,
  payer: KeyPairSigner,
  programId: Address,
  authority: KeyPairSigner,
  newAuthority: Address | null,
): Promise<Submitted> {
  const programData = await findProgramDataAddress(programId);
  return submit(chain, payer, [
    {
      programAddress: BPF_UPGRADEABLE_LOADER,
      accounts: [
        writable(programData),
        signerMeta(authority),
        ...(newAuthority === null ? [] : [readonly(newAuthority)]),
      ],
      data: u32(LoaderInstruction.SetAuthority),
    },
  ]);
}
