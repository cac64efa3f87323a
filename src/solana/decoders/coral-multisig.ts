/**
 * Coral (formerly Serum) multisig `Multisig` accounts (coral-xyz/multisig, Anchor):
 * discriminator | owners Vec<Pubkey> | threshold u64 | nonce u8 | owner_set_seqno u32.
 * The account is allocated larger than its content; the tail is zero padding.
 *
 * The multisig signs through its signer PDA, create_program_address([multisig, [nonce]]): that
 * PDA — not the multisig account — is what holds an upgrade authority (Marinade's 551FBX… is the
 * signer of magrsH…, nonce 253). There is no time lock and no admin key: changing owners or the
 * threshold is itself a multisig transaction.
 */
import {
  type Address,
  getAddressEncoder,
  getArrayCodec,
  getConstantCodec,
  getHiddenPrefixCodec,
  getStructCodec,
} from '@solana/kit';
import { createProgramAddress } from '../program-address.js';
import { CORAL_MULTISIG_PROGRAM } from '../programs.js';
import { hasDiscriminator } from './discriminator.js';
import { field } from './layout.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

/** sha256("account:Multisig")[0..8] — the same as Squads v4's: only the owner tells them apart. */
export const CORAL_MULTISIG_DISCRIMINATOR: readonly number[] = [224, 116, 121, 186, 68, 161, 79, 236];
const MIN_SIZE = 8 + 4 + 8 + 1 + 4;

export interface CoralMultisig {
  readonly owners: readonly Address[];
  readonly threshold: bigint;
  readonly nonce: number;
  /** Bumped whenever the owner set changes; pending transactions of an older set cannot run. */
  readonly ownerSetSeqno: number;
}

/** `Multisig` in Borsh, without the zero padding the account is allocated with past it. */
export const CORAL_MULTISIG_CODEC = getHiddenPrefixCodec(
  getStructCodec([
    ['owners', getArrayCodec(field.address, { size: field.u32 })],
    ['threshold', field.u64],
    ['nonce', field.u8],
    ['ownerSetSeqno', field.u32],
  ]),
  [getConstantCodec(Uint8Array.from(CORAL_MULTISIG_DISCRIMINATOR))],
);

export function decodeCoralMultisig(data: Uint8Array): DecodeResult<CoralMultisig> {
  if (data.length < MIN_SIZE)
    return notDecoded('truncated', `${data.length} bytes, a multisig has at least ${MIN_SIZE}`);
  if (!hasDiscriminator(data, CORAL_MULTISIG_DISCRIMINATOR)) {
    return notDecoded('wrong-kind', 'discriminator is not Multisig');
  }
  const result = tryDecode(() => CORAL_MULTISIG_CODEC.decode(data), 'coral multisig');
  if (!result.ok) return result;
  const { owners, threshold, nonce, ownerSetSeqno } = result.value;
  return decoded({ owners, threshold, nonce, ownerSetSeqno });
}

/** The multisig's signer PDA with its stored nonce; null when those seeds give no PDA. */
export function coralSignerAddress(
  multisig: Address,
  nonce: number,
  program: Address = CORAL_MULTISIG_PROGRAM,
): Address | null {
  return createProgramAddress(
    [getAddressEncoder().encode(multisig) as Uint8Array, Uint8Array.of(nonce)],
    program,
  );
}
