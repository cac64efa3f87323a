/**
 * Squads v3 (squads-mpl, frozen) `Ms` accounts: discriminator | threshold u16 |
 * authority_index u16 | transaction_index u32 | ms_change_index u32 | bump u8 | create_key |
 * allow_external_execute bool | keys Vec<Pubkey> (risk-research §2.7, from the Squads v3 IDL).
 * Every key is a voting member; v3 has no time lock and no config authority.
 *
 * Upgrade authorities are held by the multisig's authority PDAs
 * ["squad", multisig, u32 LE index, "authority"]; index 1 is the default vault.
 */
import {
  type Address,
  getAddressEncoder,
  getArrayCodec,
  getConstantCodec,
  getHiddenPrefixCodec,
  getStructCodec,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { SQUADS_V3_PROGRAM } from '../programs.js';
import { hasDiscriminator } from './discriminator.js';
import { field } from './layout.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

/** sha256("account:Ms")[0..8]. */
export const SQUADS_V3_MS_DISCRIMINATOR: readonly number[] = [70, 118, 9, 108, 254, 215, 31, 120];
const MIN_SIZE = 8 + 2 + 2 + 4 + 4 + 1 + 32 + 1 + 4;

export interface SquadsV3Multisig {
  readonly threshold: number;
  readonly authorityIndex: number;
  readonly transactionIndex: number;
  readonly msChangeIndex: number;
  readonly bump: number;
  readonly createKey: Address;
  readonly allowExternalExecute: boolean;
  readonly keys: readonly Address[];
}

/** `Ms` in Borsh. */
export const SQUADS_V3_MS_CODEC = getHiddenPrefixCodec(
  getStructCodec([
    ['threshold', field.u16],
    ['authorityIndex', field.u16],
    ['transactionIndex', field.u32],
    ['msChangeIndex', field.u32],
    ['bump', field.u8],
    ['createKey', field.address],
    ['allowExternalExecute', field.bool],
    ['keys', getArrayCodec(field.address, { size: field.u32 })],
  ]),
  [getConstantCodec(Uint8Array.from(SQUADS_V3_MS_DISCRIMINATOR))],
);

export function decodeSquadsV3Multisig(data: Uint8Array): DecodeResult<SquadsV3Multisig> {
  if (data.length < MIN_SIZE)
    return notDecoded('truncated', `${data.length} bytes, an Ms has at least ${MIN_SIZE}`);
  if (!hasDiscriminator(data, SQUADS_V3_MS_DISCRIMINATOR)) {
    return notDecoded('wrong-kind', 'discriminator is not Squads v3 Ms');
  }
  const result = tryDecode(() => SQUADS_V3_MS_CODEC.decode(data), 'squads v3 multisig');
  if (!result.ok) return result;
  return decoded(result.value);
}

export async function findSquadsV3AuthorityAddress(multisig: Address, index: number): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: SQUADS_V3_PROGRAM,
    seeds: ['squad', getAddressEncoder().encode(multisig), field.u32.encode(index), 'authority'],
  });
  return pda;
}
