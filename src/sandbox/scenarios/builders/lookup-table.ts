/**
 * Address lookup tables in the Address Lookup Table program's own layout (solana-program
 * `address-lookup-table` state.rs): the bincode `ProgramState::LookupTable` of a 56-byte
 * `LookupTableMeta`, then the addresses, 32 bytes each — at the address the program derives from
 * the authority and the slot the table was created in.
 */
import { type Address, getProgramDerivedAddress } from '@solana/kit';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from '../../chain/addresses.js';
import { concatBytes, pubkey, u8, u32, u64 } from './bytes.js';

/** Bytes before the first address. */
export const LOOKUP_TABLE_META_SIZE = 56;
/** `deactivation_slot` of a table never deactivated. */
const ACTIVE = 0xffff_ffff_ffff_ffffn;
/** `ProgramState::LookupTable` (0 is `Uninitialized`). */
const LOOKUP_TABLE_STATE = 1;

export interface LookupTableFields {
  /** Set while the table can still be extended; null once frozen. */
  readonly authority: Address | null;
  /** Addresses from `lastExtendedSlotStartIndex` on become usable in the slot after this one. */
  readonly lastExtendedSlot: bigint;
  readonly lastExtendedSlotStartIndex: number;
  readonly addresses: readonly Address[];
}

export function encodeLookupTable(table: LookupTableFields): Uint8Array {
  // bincode Option<Pubkey>: a tag byte, then the key when present; then `_padding: u16`, zeros to 56.
  const authority = table.authority === null ? u8(0) : concatBytes(u8(1), pubkey(table.authority));
  const meta = concatBytes(
    u32(LOOKUP_TABLE_STATE),
    u64(ACTIVE),
    u64(table.lastExtendedSlot),
    u8(table.lastExtendedSlotStartIndex),
    authority,
  );
  const padded = new Uint8Array(LOOKUP_TABLE_META_SIZE);
  padded.set(meta);
  return concatBytes(padded, ...table.addresses.map(pubkey));
}

/** Where `CreateLookupTable` puts the table of `authority` made at `recentSlot`. */
export async function lookupTableAddress(authority: Address, recentSlot: bigint): Promise<Address> {
  const [address] = await getProgramDerivedAddress({
    programAddress: ADDRESS_LOOKUP_TABLE_PROGRAM as Address,
    seeds: [pubkey(authority), u64(recentSlot)],
  });
  return address;
}
