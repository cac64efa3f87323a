/**
 * Pure: the multisig or DAO that verifiably holds a mint's authorities, as a ControlHolder
 * issuer-control.ts can word ("a 6-of-13 Coral multisig magr…9Wed", "the Realms DAO \"Pyth
 * Governance\" (67% yes votes, 7-day voting)"), with the evidence behind the name.
 *
 * Only governors whose own bytes derive the authority count (governors.ts). A multisig any one
 * member can drive (threshold 1) or a Squads v4 multisig with a config authority (one key can
 * change its members) is single-key control in effect: it gets no holder, so the generic warning
 * stands.
 */
import type { Address } from '@solana/kit';
import { decodeGovernance, decodeRealm, type VoteThreshold } from '../../solana/decoders/spl-governance.js';
import { decodeSquadsMultisig } from '../../solana/decoders/squads.js';
import { multisigRules, type OwnedAccount } from '../../solana/governance/governors.js';
import type { TokenGovernor } from '../token-facts/model.js';
import { displayName } from './display-name.js';
import type { ControlHolder } from './issuer-control.js';

const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;

export interface GovernanceHolder {
  readonly holder: ControlHolder;
  readonly evidence: Readonly<Record<string, unknown>>;
}

interface Described {
  readonly name: string;
  readonly voters: string;
  readonly evidence: Record<string, unknown>;
}

const duration = (seconds: number) =>
  seconds % 86_400 === 0
    ? `${seconds / 86_400}-day`
    : seconds % 3600 === 0
      ? `${seconds / 3600}-hour`
      : `${seconds}-second`;

const thresholdText = (t: VoteThreshold) =>
  t.type === 'disabled' ? null : `${t.percent}% ${t.type === 'yes-vote-percentage' ? 'yes votes' : 'quorum'}`;

function multisig(g: TokenGovernor, account: OwnedAccount): Described | null {
  const { lead } = g;
  if (lead.kind === 'squads-v4') {
    const ms = decodeSquadsMultisig(account.data);
    if (!ms.ok || ms.value.threshold < 2 || ms.value.configAuthority !== null) return null;
    const { threshold, voterCount, timeLockSeconds } = ms.value;
    const lock = timeLockSeconds > 0 ? ` (${duration(timeLockSeconds)} time lock)` : '';
    return {
      name: `a ${threshold}-of-${voterCount} Squads v4 multisig ${short(lead.address)}${lock}`,
      voters: 'members',
      evidence: { threshold, voters: voterCount, time_lock_seconds: timeLockSeconds },
    };
  }
  const rules = multisigRules(lead.kind, account);
  if (rules === null || rules.threshold < 2) return null;
  const label = lead.kind === 'squads-v3' ? 'Squads v3' : 'Coral';
  return {
    name: `a ${rules.threshold}-of-${rules.members.length} ${label} multisig ${short(lead.address)}`,
    voters: 'members',
    // Neither program has a time lock: an approved transaction runs at once.
    evidence: { threshold: rules.threshold, voters: rules.members.length, time_lock_seconds: 0 },
  };
}

function governance(g: TokenGovernor, account: OwnedAccount): Described | null {
  const decoded = decodeGovernance(account.data);
  if (!decoded.ok) return null;
  const { config, realm } = decoded.value;
  const realmAccount =
    g.realm && g.realm !== 'unavailable' && g.realm.owner === g.lead.program ? g.realm : null;
  const realmDecoded = realmAccount ? decodeRealm(realmAccount.data) : null;
  // The realm's name is written by whoever made it: a short label, never a sentence.
  const realmName = realmDecoded?.ok ? displayName(realmDecoded.value.name) : null;
  const vote = thresholdText(config.communityVoteThreshold) ?? thresholdText(config.councilVoteThreshold);
  const rules = [
    vote,
    `${duration(config.votingSeconds)} voting`,
    config.minTransactionHoldUpSeconds > 0 ? `${duration(config.minTransactionHoldUpSeconds)} hold-up` : null,
  ].filter((r) => r !== null);
  return {
    name: `${realmName ? `the Realms DAO "${realmName}"` : `a Realms DAO (realm ${short(realm)})`} (${rules.join(', ')})`,
    voters: 'voters',
    evidence: {
      realm,
      realm_name: realmName,
      community_vote_threshold: config.communityVoteThreshold,
      council_vote_threshold: config.councilVoteThreshold,
      voting_time_seconds: config.votingSeconds,
      hold_up_seconds: config.minTransactionHoldUpSeconds,
    },
  };
}

function describe(g: TokenGovernor): Described | null {
  const { account, lead } = g;
  if (g.derivedAuthority !== g.authority) return null;
  if (account === null || account === 'unavailable' || account.owner !== lead.program) return null;
  return lead.kind === 'spl-governance' ? governance(g, account) : multisig(g, account);
}

/**
 * The verified governor holding the most of the mint's authorities (its powers get the
 * issuer-control wording; powers held by anyone else keep the generic one); null when none is.
 */
export function governanceHolderOf(governors: readonly TokenGovernor[] | undefined): GovernanceHolder | null {
  const byAccount = new Map<string, { described: Described; g: TokenGovernor; authorities: Address[] }>();
  for (const g of governors ?? []) {
    const described = describe(g);
    if (described === null) continue;
    const entry = byAccount.get(g.lead.address) ?? { described, g, authorities: [] };
    entry.authorities.push(g.authority);
    byAccount.set(g.lead.address, entry);
  }
  const best = [...byAccount.values()].sort((a, b) => b.authorities.length - a.authorities.length)[0];
  if (best === undefined) return null;
  const { described, g, authorities } = best;
  return {
    holder: { kind: 'governance', name: described.name, voters: described.voters, authorities },
    evidence: {
      kind: g.lead.kind,
      governing_account: g.lead.address,
      governing_program: g.lead.program,
      via: g.lead.path.type,
      authorities,
      ...described.evidence,
    },
  };
}
