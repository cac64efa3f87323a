/**
 * BPF Upgradeable Loader (v3) account states and loader-v4 program accounts (risk-research §2.6).
 *
 * v3 `UpgradeableLoaderState` is bincode: a u32 LE variant tag, then
 *   0 Uninitialized | 1 Buffer { authority: Option<Pubkey> } | 2 Program { programdata: Pubkey }
 *   | 3 ProgramData { slot: u64, upgrade_authority: Option<Pubkey> } followed by the ELF at byte 45.
 * The loader reserves 33 bytes for each Option (u8 tag + key) whatever its value, and a cleared
 * authority may leave its old key bytes behind, so the tag alone decides.
 * The decoder accepts just the 45-byte header, so callers can fetch ProgramData with a dataSlice.
 */
import {
  type Address,
  getAddressDecoder,
  getAddressEncoder,
  getOptionCodec,
  getU64Decoder,
  unwrapOption,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { BPF_UPGRADEABLE_LOADER } from '../programs.js';
import { field, layoutCodec } from './layout.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

export const PROGRAM_ACCOUNT_SIZE = 36;
export const BUFFER_HEADER_SIZE = 37;
export const PROGRAM_DATA_HEADER_SIZE = 45;
const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];

export type UpgradeableLoaderState =
  | { readonly kind: 'uninitialized' }
  | { readonly kind: 'buffer'; readonly authority: Address | null }
  | { readonly kind: 'program'; readonly programDataAddress: Address }
  | {
      readonly kind: 'programData';
      /** Slot of the last deploy or upgrade. */
      readonly slot: bigint;
      /** Null = immutable: nobody can upgrade the program any more. */
      readonly upgradeAuthority: Address | null;
      /** Bytes of program code after the header (0 when only the header was fetched). */
      readonly executableLength: number;
      readonly startsWithElf: boolean;
    };

const addressDecoder = getAddressDecoder();
const u64Decoder = getU64Decoder();
/** bincode Option<Pubkey> as the loader keeps it: 33 bytes set or not, the key's old bytes left behind. */
const optionalAddress = getOptionCodec(field.address, { noneValue: 'zeroes' });
/** The variant tag, u32 LE, leads each state like a discriminator. */
const tag = (variant: number) => [variant, 0, 0, 0];

export const BUFFER_HEADER_LAYOUT = layoutCodec(BUFFER_HEADER_SIZE, tag(1), {
  authority: [4, optionalAddress],
});
export const PROGRAM_ACCOUNT_LAYOUT = layoutCodec(PROGRAM_ACCOUNT_SIZE, tag(2), {
  programData: [4, field.address],
});
/** ProgramData up to the ELF, which follows at byte 45. */
export const PROGRAM_DATA_HEADER_LAYOUT = layoutCodec(PROGRAM_DATA_HEADER_SIZE, tag(3), {
  slot: [4, field.u64],
  upgradeAuthority: [12, optionalAddress],
});

/** Whether the Option<Pubkey> tag at `offset` is 0 or 1: the codec would read any other as None. */
const optionTagIsValid = (data: Uint8Array, offset: number): boolean =>
  data[offset] === 0 || data[offset] === 1;

function hasLength(data: Uint8Array, size: number, what: string): DecodeResult<never> | null {
  return data.length < size ? notDecoded('truncated', `${data.length} bytes, ${what} has ${size}`) : null;
}

export function decodeUpgradeableLoaderState(data: Uint8Array): DecodeResult<UpgradeableLoaderState> {
  const short = hasLength(data, 4, 'a loader state tag');
  if (short) return short;
  const tag = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  switch (tag) {
    case 0:
      return decoded({ kind: 'uninitialized' });
    case 1: {
      const problem = hasLength(data, BUFFER_HEADER_SIZE, 'a buffer header');
      if (problem) return problem;
      if (!optionTagIsValid(data, 4))
        return notDecoded('malformed', 'buffer authority tag is neither 0 nor 1');
      return decoded({
        kind: 'buffer',
        authority: unwrapOption(BUFFER_HEADER_LAYOUT.decode(data).authority),
      });
    }
    case 2: {
      const problem = hasLength(data, PROGRAM_ACCOUNT_SIZE, 'a program account');
      if (problem) return problem;
      return decoded({
        kind: 'program',
        programDataAddress: PROGRAM_ACCOUNT_LAYOUT.decode(data).programData,
      });
    }
    case 3: {
      const problem = hasLength(data, PROGRAM_DATA_HEADER_SIZE, 'a ProgramData header');
      if (problem) return problem;
      if (!optionTagIsValid(data, 12))
        return notDecoded('malformed', 'upgrade authority tag is neither 0 nor 1');
      const header = PROGRAM_DATA_HEADER_LAYOUT.decode(data);
      return decoded({
        kind: 'programData',
        slot: header.slot,
        upgradeAuthority: unwrapOption(header.upgradeAuthority),
        executableLength: data.length - PROGRAM_DATA_HEADER_SIZE,
        startsWithElf: ELF_MAGIC.every((byte, index) => data[PROGRAM_DATA_HEADER_SIZE + index] === byte),
      });
    }
    default:
      return notDecoded('wrong-kind', `loader state tag ${tag}`);
  }
}

/** The ProgramData PDA of an upgradeable program: seeds [program id] under the loader. */
export async function findProgramDataAddress(programId: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: BPF_UPGRADEABLE_LOADER,
    seeds: [getAddressEncoder().encode(programId)],
  });
  return pda;
}

export const LOADER_V4_HEADER_SIZE = 48;
const LOADER_V4_STATUSES = ['retracted', 'deployed', 'finalized'] as const;
export type LoaderV4Status = (typeof LOADER_V4_STATUSES)[number];

export interface LoaderV4Program {
  /** Slot of the last deployment. */
  readonly slot: bigint;
  /** The upgrade authority while not finalized; once finalized, the next version's address (if any). */
  readonly authorityOrNextVersion: Address;
  /** 'finalized' = immutable. */
  readonly status: LoaderV4Status;
  readonly executableLength: number;
}

/**
 * A loader-v4 program account: slot u64 | authority_address_or_next_version Pubkey | status u64,
 * then the ELF (SIMD-0167). Loader v4 is not enabled on mainnet; decoded so such a program is
 * recognised rather than reported as unknown.
 */
export function decodeLoaderV4Program(data: Uint8Array): DecodeResult<LoaderV4Program> {
  const short = hasLength(data, LOADER_V4_HEADER_SIZE, 'a loader-v4 header');
  if (short) return short;
  const statusValue = u64Decoder.decode(data.subarray(40, 48));
  const status = statusValue < 3n ? LOADER_V4_STATUSES[Number(statusValue)] : undefined;
  if (status === undefined) return notDecoded('malformed', `loader-v4 status ${statusValue}`);
  return decoded({
    slot: u64Decoder.decode(data.subarray(0, 8)),
    authorityOrNextVersion: addressDecoder.decode(data.subarray(8, 40)),
    status,
    executableLength: data.length - LOADER_V4_HEADER_SIZE,
  });
}
