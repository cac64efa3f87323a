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
import { type Address, getAddressEncoder } from '@solana/kit';
import {
  findNativeTreasuryAddress,
  SPL_GOVERNANCE_DEPLOYMENTS,
} from '../../solana/decoders/spl-governance.js';
import { findSquadsV3AuthorityAddress } from '../../solana/decoders/squads-v3.js';
import { type GovernorLead, wellKnownGovernor } from '../../solana/governance/governors.js';
import { findProgramDerivedAddress } from '../../solana/program-address.js';
import { CORAL_MULTISIG_PROGRAM, SQUADS_V3_PROGRAM } from '../../solana/programs.js';
import { instructionsIn, type RecordedTransaction } from './history.js';

export {
  derivedAuthority,
  type GovernorKind,
  type GovernorLead,
  type GovernorPath,
  governanceAuthority,
} from '../../solana/governance/governors.js';

/** Squads v3 authority indexes tried: 1 is the default vault, 0 the internal one. */
const V3_INDEXES = [1, 2, 3, 4, 0];
/** Leads tried, so a history full of governance instructions cannot make us derive forever. */
const MAX_LEADS = 8;

/** A lead whose address derives `authority` (checked here for every kind but Coral, whose nonce is in its account). */
export async function governorLead(
  authority: Address,
  history: readonly RecordedTransaction[],
): Promise<GovernorLead | null> {
  const known = wellKnownGovernor(authority);
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
    const [canonical] = await findProgramDerivedAddress({
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
