/**
 * Governing accounts — a Squads v3 or v4 multisig, a Coral multisig or an SPL Governance (Realms)
 * governance — that may stand behind an authority (a program's upgrade authority, a mint's mint or
 * freeze authority), shared by the program and token scans.
 *
 * A lead names a governing account and how the authority would derive from it. It is never
 * trusted: the authority is recognised only when the governing account, read from the chain and
 * owned by the expected program, derives that very authority (`derivedAuthority`), so a forged
 * account or a misleading instruction cannot fake it.
 */
import type { Address } from '@solana/kit';
import { coralSignerAddress, decodeCoralMultisig } from '../decoders/coral-multisig.js';
import {
  decodeGovernance,
  findNativeTreasuryAddress,
  governanceAddressOf,
  isGovernanceDeployment,
} from '../decoders/spl-governance.js';
import { decodeSquadsMultisig, findSquadsVaultAddress } from '../decoders/squads.js';
import { decodeSquadsV3Multisig, findSquadsV3AuthorityAddress } from '../decoders/squads-v3.js';
import { CORAL_MULTISIG_PROGRAM, SQUADS_V3_PROGRAM } from '../programs.js';

export type GovernorKind = 'squads-v3' | 'squads-v4' | 'coral-multisig' | 'spl-governance';

/** How the authority derives from the governing account. */
export type GovernorPath =
  | { readonly type: 'squads-v3-authority'; readonly index: number }
  | { readonly type: 'squads-v4-vault'; readonly index: number }
  | { readonly type: 'coral-signer' }
  | { readonly type: 'governance' }
  | { readonly type: 'native-treasury' };

export interface GovernorLead {
  readonly kind: GovernorKind;
  readonly program: Address;
  readonly address: Address;
  readonly path: GovernorPath;
}

/** What derivation needs of an account read from the chain. */
export interface OwnedAccount {
  readonly owner: Address;
  readonly data: Uint8Array;
}

/**
 * Well-known governing accounts by the authority they hold, each checked on chain like any lead:
 * Marinade's Coral multisig (its signer 551FBX… holds MarBms…'s upgrade authority) and Jupiter's
 * Squads v3 multisig (its authority 1 holds JUP6Lk…'s), as recorded in fixtures/mainnet/PROVENANCE.md.
 * Add only entries whose source is recorded there.
 */
const WELL_KNOWN: ReadonlyMap<string, GovernorLead> = new Map([
  [
    '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp',
    {
      kind: 'coral-multisig',
      program: CORAL_MULTISIG_PROGRAM,
      address: 'magrsHFQxkkioAy45VWnZnFBBdKVdy2ZiRoRGYT9Wed' as Address,
      path: { type: 'coral-signer' },
    },
  ],
  [
    'CvQZZ23qYDWF2RUpxYJ8y9K4skmuvYEEjH7fK58jtipQ',
    {
      kind: 'squads-v3',
      program: SQUADS_V3_PROGRAM,
      address: '7ZyDFzet6sKgZLN4D89JLfo7chu2n7nYdkFt5RCFk8Sf' as Address,
      path: { type: 'squads-v3-authority', index: 1 },
    },
  ],
]);

/** The well-known governing account said to hold `authority`, if any (a lead, still to be checked). */
export const wellKnownGovernor = (authority: Address): GovernorLead | null =>
  WELL_KNOWN.get(authority) ?? null;

/** The authority is itself a governance account of a known SPL Governance deployment. */
export function governanceAuthority(authority: Address, account: OwnedAccount | null): GovernorLead | null {
  if (account === null || !isGovernanceDeployment(account.owner)) return null;
  return { kind: 'spl-governance', program: account.owner, address: authority, path: { type: 'governance' } };
}

/**
 * The authority the governing account's own bytes derive, by the lead's path; null when the
 * account is missing, owned by another program or not of the expected kind.
 */
export async function derivedAuthority(
  lead: GovernorLead,
  account: OwnedAccount | null,
): Promise<Address | null> {
  if (account === null || account.owner !== lead.program) return null;
  const { path, address } = lead;
  switch (path.type) {
    case 'squads-v3-authority':
      return decodeSquadsV3Multisig(account.data).ok
        ? findSquadsV3AuthorityAddress(address, path.index)
        : null;
    case 'squads-v4-vault':
      return decodeSquadsMultisig(account.data).ok ? findSquadsVaultAddress(address, path.index) : null;
    case 'coral-signer': {
      const multisig = decodeCoralMultisig(account.data);
      return multisig.ok ? coralSignerAddress(address, multisig.value.nonce, lead.program) : null;
    }
    case 'governance': {
      const governance = decodeGovernance(account.data);
      return governance.ok ? governanceAddressOf(governance.value, lead.program) : null;
    }
    case 'native-treasury': {
      const governance = decodeGovernance(account.data);
      return governance.ok ? findNativeTreasuryAddress(address, lead.program) : null;
    }
  }
}

export interface MultisigRules {
  readonly threshold: number;
  readonly members: readonly Address[];
  /** Coral: the signer's nonce. */
  readonly nonce?: number;
}

/** Threshold and members of a Squads v3 or Coral multisig account; null when it does not decode as one. */
export function multisigRules(kind: GovernorKind, account: OwnedAccount): MultisigRules | null {
  if (kind === 'squads-v3') {
    const ms = decodeSquadsV3Multisig(account.data);
    return ms.ok ? { threshold: ms.value.threshold, members: ms.value.keys } : null;
  }
  if (kind !== 'coral-multisig') return null;
  const ms = decodeCoralMultisig(account.data);
  // A threshold beyond u32 is no real multisig; Number() of it would mislead.
  if (!ms.ok || ms.value.threshold > 0xffff_ffffn) return null;
  return { threshold: Number(ms.value.threshold), members: ms.value.owners, nonce: ms.value.nonce };
}
