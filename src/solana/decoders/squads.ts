/**
 * Squads v4 `Multisig` accounts: when an upgrade or mint authority is a Squads vault, this tells
 * how many members must approve a change and whether a single config authority can bypass them.
 *
 * Layout (Anchor/Borsh, risk-research §2.7, from @sqds/multisig 2.1.4): discriminator |
 * create_key | config_authority | threshold u16 | time_lock u32 | transaction_index u64 |
 * stale_transaction_index u64 | rent_collector Option<Pubkey> | bump u8 |
 * members Vec<{ key, permissions mask u8 }>. No real account is among the fixtures, so the tests
 * build bytes from the documented offsets (threshold at 72, time_lock at 74).
 */
import {
  type Address,
  getAddressEncoder,
  getArrayCodec,
  getConstantCodec,
  getHiddenPrefixCodec,
  getOptionCodec,
  getStructCodec,
  unwrapOption,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { SQUADS_V4_PROGRAM } from '../programs.js';
import { hasDiscriminator } from './discriminator.js';
import { field } from './layout.js';
import { nonZeroAddress } from './optional-address.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

/** sha256("account:Multisig")[0..8]. */
export const SQUADS_MULTISIG_DISCRIMINATOR: readonly number[] = [224, 116, 121, 186, 68, 161, 79, 236];
/** Up to and including an empty members vec with rent_collector None. */
const MIN_MULTISIG_SIZE = 8 + 32 + 32 + 2 + 4 + 8 + 8 + 1 + 1 + 4;

const PERMISSION_INITIATE = 1;
const PERMISSION_VOTE = 2;
const PERMISSION_EXECUTE = 4;

export interface SquadsMember {
  readonly key: Address;
  readonly canInitiate: boolean;
  readonly canVote: boolean;
  readonly canExecute: boolean;
}

export interface SquadsMultisig {
  readonly createKey: Address;
  /**
   * Null for an autonomous multisig (config changes need a vote). A set key can change members,
   * threshold and time lock alone — the multisig is then only as safe as that key.
   */
  readonly configAuthority: Address | null;
  readonly threshold: number;
  /** Seconds between approval and execution. */
  readonly timeLockSeconds: number;
  readonly transactionIndex: bigint;
  readonly staleTransactionIndex: bigint;
  readonly rentCollector: Address | null;
  readonly bump: number;
  readonly members: readonly SquadsMember[];
  /** Members allowed to vote: the threshold is out of these. */
  readonly voterCount: number;
}

/** `Multisig` in Borsh; "no config authority" is the zero key, as the program writes it. */
export const SQUADS_MULTISIG_CODEC = getHiddenPrefixCodec(
  getStructCodec([
    ['createKey', field.address],
    ['configAuthority', field.address],
    ['threshold', field.u16],
    ['timeLock', field.u32],
    ['transactionIndex', field.u64],
    ['staleTransactionIndex', field.u64],
    ['rentCollector', getOptionCodec(field.address)],
    ['bump', field.u8],
    [
      'members',
      getArrayCodec(
        getStructCodec([
          ['key', field.address],
          ['permissions', field.u8],
        ]),
        { size: field.u32 },
      ),
    ],
  ]),
  [getConstantCodec(Uint8Array.from(SQUADS_MULTISIG_DISCRIMINATOR))],
);

export function decodeSquadsMultisig(data: Uint8Array): DecodeResult<SquadsMultisig> {
  if (!hasDiscriminator(data, SQUADS_MULTISIG_DISCRIMINATOR)) {
    return data.length < 8
      ? notDecoded('truncated', `${data.length} bytes, no discriminator`)
      : notDecoded('wrong-kind', 'discriminator is not Squads v4 Multisig');
  }
  if (data.length < MIN_MULTISIG_SIZE) {
    return notDecoded('truncated', `${data.length} bytes, a multisig has at least ${MIN_MULTISIG_SIZE}`);
  }
  const result = tryDecode(() => SQUADS_MULTISIG_CODEC.decode(data), 'squads multisig');
  if (!result.ok) return result;
  const raw = result.value;
  const members = raw.members.map(({ key, permissions }) => ({
    key,
    canInitiate: (permissions & PERMISSION_INITIATE) !== 0,
    canVote: (permissions & PERMISSION_VOTE) !== 0,
    canExecute: (permissions & PERMISSION_EXECUTE) !== 0,
  }));
  return decoded({
    createKey: raw.createKey,
    // The program's "no config authority" value is Pubkey::default (the zero key).
    configAuthority: nonZeroAddress(raw.configAuthority),
    threshold: raw.threshold,
    timeLockSeconds: raw.timeLock,
    transactionIndex: raw.transactionIndex,
    staleTransactionIndex: raw.staleTransactionIndex,
    rentCollector: unwrapOption(raw.rentCollector),
    bump: raw.bump,
    members,
    voterCount: members.filter((member) => member.canVote).length,
  });
}

/**
 * A Squads v4 vault: the PDA ["multisig", multisig, "vault", index] under the Squads program. It
 * is what actually holds an upgrade authority on mainnet; the multisig account holds the rules.
 */
export async function findSquadsVaultAddress(multisig: Address, index: number): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: SQUADS_V4_PROGRAM,
    seeds: ['multisig', getAddressEncoder().encode(multisig), 'vault', new Uint8Array([index])],
  });
  return pda;
}
