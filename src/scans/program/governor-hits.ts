/**
 * Pure: the flags of an upgrade authority held by a Squads v3 multisig, a Coral multisig or an
 * SPL Governance (Realms) governance — raised only when the governing account, owned by its
 * program and decoding as that kind, derives the authority itself (governors.ts).
 */
import type { Address } from '@solana/kit';
import {
  decodeGovernance,
  decodeRealm,
  type Governance,
  type Realm,
  type VoteThreshold,
} from '../../solana/decoders/spl-governance.js';
import { multisigRules } from '../../solana/governance/governors.js';
import type { FlagHit } from '../risk/model.js';
import type { Governor, RawAccount } from './facts.js';
import type { ProgramFlag } from './flags.js';

type Hit = FlagHit<ProgramFlag>;

/** The hits for a governor that verifiably holds `authority`; null when it does not (or could not be read). */
export function governorHits(authority: Address, governor: Governor | null | undefined): Hit[] | null {
  if (!governor || governor.derivedAuthority !== authority) return null;
  const { account, lead } = governor;
  if (account === null || account === 'unavailable' || account.owner !== lead.program) return null;
  if (lead.kind === 'spl-governance') {
    const governance = decodeGovernance(account.data);
    return governance.ok ? [governanceHit(authority, governor, governance.value)] : null;
  }
  return multisigHit(authority, governor, account);
}

function multisigHit(authority: Address, governor: Governor, account: RawAccount): Hit[] | null {
  const { lead } = governor;
  const rules = multisigRules(lead.kind, account);
  if (rules === null) return null;
  const name = lead.kind === 'squads-v3' ? 'Squads v3' : 'Coral';
  const via =
    lead.path.type === 'squads-v3-authority'
      ? { vault: authority, vault_index: lead.path.index }
      : { signer: authority, nonce: rules.nonce };
  return [
    {
      code: 'UPGRADE_AUTHORITY_MULTISIG',
      strength: 1,
      severity: rules.threshold >= 2 ? 'low' : 'medium',
      evidence: {
        kind: lead.kind,
        multisig: lead.address,
        multisig_program: lead.program,
        ...via,
        threshold: rules.threshold,
        voters: rules.members.length,
        members: rules.members,
        // Neither program has a time lock: an approved upgrade runs at once.
        time_lock_seconds: 0,
      },
      reason: `a ${name} multisig needs ${rules.threshold} of ${rules.members.length} owners to upgrade it, with no time lock`,
    },
  ];
}

const thresholdText = (t: VoteThreshold, who: string) =>
  t.type === 'disabled'
    ? `${who} voting disabled`
    : `${t.percent}% ${t.type === 'yes-vote-percentage' ? 'yes votes' : 'quorum'} of the ${who}`;

const duration = (seconds: number) =>
  seconds === 0
    ? 'no hold-up'
    : seconds % 86_400 === 0
      ? `${seconds / 86_400} day(s)`
      : seconds % 3600 === 0
        ? `${seconds / 3600} hour(s)`
        : `${seconds} s`;

function realmOf(governor: Governor): Realm | null {
  const realm = governor.realm;
  if (realm === null || realm === 'unavailable' || realm.owner !== governor.lead.program) return null;
  const decoded = decodeRealm(realm.data);
  return decoded.ok ? decoded.value : null;
}

function governanceHit(authority: Address, governor: Governor, governance: Governance): Hit {
  const { config } = governance;
  const realm = realmOf(governor);
  const name = realm ? `the "${realm.name}" DAO` : 'a DAO';
  return {
    code: 'UPGRADE_AUTHORITY_GOVERNANCE',
    strength: 1,
    evidence: {
      governance: governor.lead.address,
      via: governor.lead.path.type === 'native-treasury' ? 'native_treasury' : 'governance',
      ...(governor.lead.path.type === 'native-treasury' ? { native_treasury: authority } : {}),
      governance_program: governor.lead.program,
      governance_kind: governance.kind,
      governed_account: governance.governedAccount,
      realm: governance.realm,
      realm_name: realm?.name ?? null,
      community_mint: realm?.communityMint ?? null,
      council_mint: realm?.councilMint ?? null,
      community_vote_threshold: config.communityVoteThreshold,
      council_vote_threshold: config.councilVoteThreshold,
      council_veto_vote_threshold: config.councilVetoVoteThreshold,
      voting_time_seconds: config.votingSeconds,
      hold_up_seconds: config.minTransactionHoldUpSeconds,
    },
    reason: `${name} (SPL Governance) upgrades it only through a passed proposal: ${thresholdText(config.communityVoteThreshold, 'community')}, ${thresholdText(config.councilVoteThreshold, 'council')}, ${duration(config.votingSeconds)} of voting, then ${duration(config.minTransactionHoldUpSeconds)}`,
  };
}
