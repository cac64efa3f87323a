/**
 * Which governing account — a Squads v3 multisig, a Coral multisig or an SPL Governance (Realms)
 * governance — stands behind an upgrade authority, found without scanning any program's accounts.
 *
 * Where to look, from what the scan already has (no extra round trip):
 *  - the authority's own account: an SPL Governance account owned by a known deployment IS the
 *    authority when a DAO governs the program directly;
 *  - the ProgramData history: upgrades run as inner instructions of the governing program's
 *    execute instruction, which names the governing account first (Squads v3
 *    execute_transaction/execute_instruction, Coral execute_transaction, SPL Governance
 *    execute_transaction);
 *  - a short list of well-known governing accounts, keyed by the authority they sign for, for
 *    programs whose recent history shows no execution (an authority handed over and not used
 *    since, or history pushed out by transactions that merely mention ProgramData).
 * getProgramAccounts is not used: it would cost a round trip on every unrecognised PDA, and
 * providers refuse or cap it on large programs (src/sandbox/rpc/profiles.ts).
 *
 * A name found this way is only a lead. The authority is recognised when the governing account
 * read from the chain, owned by the expected program, derives that very authority
 * (`derivedAuthority`), so a forged account or a misleading instruction cannot fake it.
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { coralSignerAddress, decodeCoralMultisig } from '../../solana/decoders/coral-multisig.js';
import {
  decodeGovernance,
  findNativeTreasuryAddress,
  governanceAddressOf,
  isGovernanceDeployment,
  SPL_GOVERNANCE_DEPLOYMENTS,
} from '../../solana/decoders/spl-governance.js';
import { decodeSquadsV3Multisig, findSquadsV3AuthorityAddress } from '../../solana/decoders/squads-v3.js';
import { CORAL_MULTISIG_PROGRAM, SQUADS_V3_PROGRAM } from '../../solana/programs.js';
import type { RawAccount } from './facts.js';
import { instructionsIn, type RecordedTransaction } from './history.js';

export type GovernorKind = 'squads-v3' | 'coral-multisig' | 'spl-governance';

/** How the authority derives from the governing account. */
export type GovernorPath =
  | { readonly type: 'squads-v3-authority'; readonly index: number }
  | { readonly type: 'coral-signer' }
  | { readonly type: 'governance' }
  | { readonly type: 'native-treasury' };

export interface GovernorLead {
  readonly kind: GovernorKind;
  readonly program: Address;
  readonly address: Address;
  readonly path: GovernorPath;
}

/** Squads v3 authority indexes tried: 1 is the default vault, 0 the internal one. */
const V3_INDEXES = [1, 2, 3, 4, 0];
/** Leads tried, so a history full of governance instructions cannot make us derive forever. */
const MAX_LEADS = 8;

/**
 * Well-known governing accounts by the authority they hold, each checked on chain like any lead:
 * Marinade's Coral multisig (its signer holds MarBms…'s upgrade authority) and Jupiter's Squads
 * v3 multisig (its authority 1 holds JUP6Lk…'s), as recorded in fixtures/mainnet/PROVENANCE.md.
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

/** The authority is itself a governance account of a known SPL Governance deployment. */
export function governanceAuthority(authority: Address, account: RawAccount | null): GovernorLead | null {
  if (account === null || !isGovernanceDeployment(account.owner)) return null;
  return { kind: 'spl-governance', program: account.owner, address: authority, path: { type: 'governance' } };
}

/** A lead whose address derives `authority` (checked here for every kind but Coral, whose nonce is in its account). */
export async function governorLead(
  authority: Address,
  history: readonly RecordedTransaction[],
): Promise<GovernorLead | null> {
  const known = WELL_KNOWN.get(authority);
  if (known) return known;
  for (const named of namedInHistory(history, authority).slice(0, MAX_LEADS)) {
    const lead = await derivesAuthority(named, authority);
    if (lead) return lead;
  }
  return null;
}

interface Named {
  readonly program: Address;
  readonly address: Address;
  /** The instruction also lists the authority (Coral's execute_transaction names its signer second). */
  readonly namesAuthority: boolean;
}

function namedInHistory(history: readonly RecordedTransaction[], authority: Address): Named[] {
  const programs = new Set<string>([
    SQUADS_V3_PROGRAM,
    CORAL_MULTISIG_PROGRAM,
    ...SPL_GOVERNANCE_DEPLOYMENTS,
  ]);
  const seen = new Set<string>();
  const named: Named[] = [];
  for (const tx of history) {
    for (const ix of instructionsIn(tx)) {
      const first = ix.accounts[0];
      const key = `${ix.program}:${first}`;
      if (!programs.has(ix.program) || first === undefined || first === '' || seen.has(key)) continue;
      seen.add(key);
      named.push({
        program: ix.program as Address,
        address: first as Address,
        namesAuthority: ix.accounts.includes(authority),
      });
    }
  }
  return named;
}

async function derivesAuthority(named: Named, authority: Address): Promise<GovernorLead | null> {
  const { program, address } = named;
  if (program === SQUADS_V3_PROGRAM) {
    for (const index of V3_INDEXES) {
      if ((await findSquadsV3AuthorityAddress(address, index)) === authority) {
        return { kind: 'squads-v3', program, address, path: { type: 'squads-v3-authority', index } };
      }
    }
    return null;
  }
  if (program === CORAL_MULTISIG_PROGRAM) {
    // The signer's nonce is in the account: take the lead when the canonical bump gives the
    // authority or the instruction itself names it; the stored nonce decides after the read.
    const [canonical] = await getProgramDerivedAddress({
      programAddress: program,
      seeds: [getAddressEncoder().encode(address)],
    });
    return canonical === authority || named.namesAuthority
      ? { kind: 'coral-multisig', program, address, path: { type: 'coral-signer' } }
      : null;
  }
  return (await findNativeTreasuryAddress(address, program)) === authority
    ? { kind: 'spl-governance', program, address, path: { type: 'native-treasury' } }
    : null;
}

/**
 * The authority the governing account's own bytes derive, by the lead's path; null when the
 * account is missing, owned by another program or not of the expected kind.
 */
export async function derivedAuthority(
  lead: GovernorLead,
  account: RawAccount | null,
): Promise<Address | null> {
  if (account === null || account.owner !== lead.program) return null;
  const { path, address } = lead;
  switch (path.type) {
    case 'squads-v3-authority':
      return decodeSquadsV3Multisig(account.data).ok
        ? findSquadsV3AuthorityAddress(address, path.index)
        : null;
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
