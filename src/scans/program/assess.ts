/** Pure: program facts → ScanResult for /scan/program. */
import type { Address } from '@solana/kit';
import type { ScanResult } from '../../contract/schemas.js';
import { authorityKind } from '../../solana/address-curve.js';
import { decodeSquadsMultisig } from '../../solana/decoders/squads.js';
import {
  decodeLoaderV4Program,
  decodeUpgradeableLoaderState,
} from '../../solana/decoders/upgradeable-loader.js';
import {
  BPF_LOADER_1,
  BPF_LOADER_2,
  BPF_UPGRADEABLE_LOADER,
  LOADER_V4,
  SQUADS_V4_PROGRAM,
  SYSTEM_PROGRAM,
} from '../../solana/programs.js';
import type { FlagHit } from '../risk/model.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import { HISTORY_LIMIT, type ProgramFacts, type RawAccount } from './facts.js';
import { PROGRAM_FLAGS, type ProgramFlag } from './flags.js';
import { governorHits } from './governor-hits.js';
import { programEvents } from './history.js';
import {
  AUTHORITY_CHANGE_WINDOW_S,
  DAY,
  FREQUENT_UPGRADES,
  HOUR,
  NEW_PROGRAM_S,
  RECENT_UPGRADE_S,
} from './thresholds.js';

type Hit = FlagHit<ProgramFlag>;

const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;
const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

const ADVICE = {
  proceed:
    'The program cannot be changed under you, or only by a multisig or a DAO vote; integrate as usual.',
  caution: 'Pin the program version you reviewed and watch for upgrades before trusting it with funds.',
  avoid:
    'Whoever controls the upgrade authority can change this program at will; do not route funds through it without accepting that.',
  do_not_interact: 'Do not integrate: the program is not usable or its control is unsafe.',
} as const;

/** Upgrade authority from the ProgramData header, by the option tag. */
export function upgradeAuthorityOf(programData: RawAccount | null): Address | null {
  if (programData === null) return null;
  const state = decodeUpgradeableLoaderState(programData.data);
  return state.ok && state.value.kind === 'programData' ? state.value.upgradeAuthority : null;
}

function notAProgram(facts: ProgramFacts): ScanResult {
  const a = facts.program;
  return buildResult(
    {
      subject: `Address ${short(facts.programId)}`,
      hits: [
        {
          code: 'NOT_A_PROGRAM',
          strength: 1,
          evidence: { exists: a !== null, owner: a?.owner ?? null, executable: a?.executable ?? false },
          reason:
            a === null
              ? 'no account exists at this address'
              : `it is a ${a.owner === SYSTEM_PROGRAM ? 'wallet' : `account owned by ${a.owner}`}, not an executable program`,
        },
      ],
      facts: { program_id: facts.programId, exists: a !== null, owner: a?.owner ?? null },
      advice: sameAdvice(
        'This address is not a deployed program: check that you passed the program id, and do not route instructions to it.',
      ),
    },
    PROGRAM_FLAGS,
  );
}

function authorityHits(
  authority: Address,
  account: ProgramFacts['authorityAccount'],
  vault: ProgramFacts['squadsVault'] = null,
  governor: ProgramFacts['governor'] = null,
): Hit[] {
  if (authorityKind(authority) === 'keypair') {
    return [
      {
        code: 'UPGRADE_AUTHORITY_SINGLE_KEY',
        strength: 1,
        evidence: { upgrade_authority: authority },
        reason: `a single key (${authority}) can upgrade it`,
      },
    ];
  }
  if (account === 'unavailable') {
    return [
      {
        code: 'AUTHORITY_UNAVAILABLE',
        strength: 1,
        evidence: { upgrade_authority: authority, reason: 'RPC error' },
        reason: 'the authority account could not be read',
      },
    ];
  }
  // The authority is the multisig account itself, or (as on mainnet) one of its vaults.
  const multisigAccount =
    account?.owner === SQUADS_V4_PROGRAM
      ? { address: authority, account, vault: null }
      : vault !== null && vault.account !== 'unavailable' && vault.account?.owner === SQUADS_V4_PROGRAM
        ? { address: vault.multisig, account: vault.account, vault }
        : null;
  if (multisigAccount !== null) {
    const ms = decodeSquadsMultisig(multisigAccount.account.data);
    if (ms.ok) {
      const m = ms.value;
      const multisig = multisigAccount.address;
      const viaVault =
        multisigAccount.vault === null ? {} : { vault: authority, vault_index: multisigAccount.vault.index };
      const hits: Hit[] = [
        {
          code: 'UPGRADE_AUTHORITY_MULTISIG',
          strength: 1,
          severity: m.threshold >= 2 ? 'low' : 'medium',
          evidence: {
            kind: 'squads-v4',
            multisig,
            ...viaVault,
            threshold: m.threshold,
            voters: m.voterCount,
            time_lock_seconds: m.timeLockSeconds,
          },
          reason: `a Squads multisig needs ${m.threshold} of ${m.voterCount} votes to upgrade it`,
        },
      ];
      if (m.configAuthority !== null) {
        hits.push({
          code: 'MULTISIG_CONFIG_AUTHORITY_SET',
          strength: 1,
          evidence: { multisig, config_authority: m.configAuthority },
          reason: `${m.configAuthority} can change the multisig's members and threshold without a vote`,
        });
      }
      return hits;
    }
  }
  const governed = governorHits(authority, governor);
  if (governed !== null) return governed;
  return [
    {
      code: 'UPGRADE_AUTHORITY_UNKNOWN_PDA',
      strength: 1,
      evidence: { upgrade_authority: authority, authority_owner: account?.owner ?? null },
      reason: `the upgrade authority ${short(authority)} is a program-controlled address${account ? ` owned by ${account.owner}` : ' with no account'}; who can upgrade depends on that program`,
    },
  ];
}

/** The code or its authority changed lately: a recent deploy, frequent upgrades, a new authority. */
function recentChangeHits(
  signatures: NonNullable<ProgramFacts['signatures']>,
  now: number,
  events: ReturnType<typeof programEvents>,
  deploySlot: bigint,
): Hit[] {
  const hits: Hit[] = [];
  const deployTime =
    signatures.find((s) => s.slot === deploySlot)?.blockTime ??
    events.filter((e) => e.slot === deploySlot).at(-1)?.blockTime ??
    null;
  if (deployTime !== null && now - deployTime < RECENT_UPGRADE_S.any) {
    const hours = (now - deployTime) / HOUR;
    hits.push({
      code: 'RECENTLY_UPGRADED',
      strength: 1,
      severity: hours < RECENT_UPGRADE_S.strongest / HOUR ? 'medium' : 'low',
      evidence: {
        last_deploy_slot: String(deploySlot),
        last_deploy_time: iso(deployTime),
        hours_since: Math.round(hours * 10) / 10,
      },
      reason: `its code last changed ${hours < 48 ? `${Math.round(hours)} hours` : `${Math.round(hours / 24)} days`} ago`,
    });
  }
  const upgrades30d = events.filter(
    (e) => e.kind === 'upgrade' && e.blockTime !== null && now - e.blockTime < FREQUENT_UPGRADES.windowS,
  );
  if (upgrades30d.length >= FREQUENT_UPGRADES.count) {
    hits.push({
      code: 'FREQUENT_UPGRADES',
      strength: 1,
      evidence: { upgrades_30d: upgrades30d.length, signatures: upgrades30d.map((e) => e.signature) },
      reason: `it was upgraded ${upgrades30d.length} times in 30 days`,
    });
  }
  // Giving the authority up (new authority none) makes the program immutable: that is no risk.
  const change = events
    .filter(
      (e) =>
        e.kind === 'set_authority' &&
        e.newAuthority &&
        e.blockTime !== null &&
        now - e.blockTime < AUTHORITY_CHANGE_WINDOW_S,
    )
    .at(-1);
  if (change) {
    hits.push({
      code: 'AUTHORITY_CHANGED_RECENTLY',
      strength: 1,
      evidence: {
        signature: change.signature,
        new_authority: change.newAuthority ?? null,
        time: iso(change.blockTime),
      },
      reason: `its upgrade authority changed to ${change.newAuthority ?? 'none (immutable)'} ${Math.round((now - (change.blockTime ?? now)) / DAY)} days ago`,
    });
  }
  return hits;
}

function historyHits(
  facts: ProgramFacts,
  deploySlot: bigint,
): { hits: Hit[]; notes: string[]; firstDeploy: number | null } {
  const hits: Hit[] = [];
  if (facts.signatures === null) {
    hits.push({
      code: 'HISTORY_UNAVAILABLE',
      strength: 1,
      evidence: { reason: facts.historyError ?? 'unknown' },
      reason: 'its upgrade history could not be read',
    });
    return { hits, notes: [], firstDeploy: null };
  }
  const truncated =
    facts.signatures.length >= HISTORY_LIMIT ||
    facts.transactions.length < Math.min(facts.signatures.length, 20);
  if (truncated) {
    hits.push({
      code: 'HISTORY_TRUNCATED',
      strength: 1,
      evidence: { signatures_read: facts.transactions.length },
      reason: 'only its most recent management transactions were read',
    });
  }
  const events = programEvents(facts.transactions, facts.programDataAddress);
  const now = facts.nowSeconds;
  hits.push(...recentChangeHits(facts.signatures, now, events, deploySlot));
  const deploy = events.find((e) => e.kind === 'deploy');
  const firstDeploy = truncated ? null : (deploy?.blockTime ?? null);
  if (firstDeploy !== null && now - firstDeploy < NEW_PROGRAM_S) {
    hits.push({
      code: 'PROGRAM_NEW',
      strength: 1,
      evidence: { deployed_at: iso(firstDeploy) },
      reason: `it was first deployed ${Math.round((now - firstDeploy) / DAY)} days ago`,
    });
  }
  const notes = [
    `${events.filter((e) => e.kind === 'upgrade').length} upgrade(s) and ${events.filter((e) => e.kind === 'set_authority').length} authority change(s) in the ${facts.transactions.length} management transaction(s) read`,
  ];
  return { hits, notes, firstDeploy };
}

function immutableHit(loader: string): Hit {
  return {
    code: 'PROGRAM_IMMUTABLE',
    strength: 1,
    evidence: { loader },
    reason: 'nobody can change its code',
  };
}

export function assessProgram(facts: ProgramFacts): ScanResult {
  const program = facts.program;
  const subject = `Program ${short(facts.programId)}`;
  if (program === null || !program.executable) return notAProgram(facts);
  const base = { program_id: facts.programId, loader: program.owner };

  if (program.owner === BPF_LOADER_1 || program.owner === BPF_LOADER_2 || program.owner === NATIVE_LOADER) {
    return buildResult(
      {
        subject,
        hits: [immutableHit(program.owner)],
        facts: base,
        advice: ADVICE,
        notes: ['it is deployed by a loader that does not allow upgrades'],
      },
      PROGRAM_FLAGS,
    );
  }
  if (program.owner === LOADER_V4) {
    const v4 = decodeLoaderV4Program(program.data);
    const finalized = v4.ok && v4.value.status === 'finalized';
    const authority = v4.ok && !finalized ? v4.value.authorityOrNextVersion : null;
    const hits = authority === null ? [immutableHit(LOADER_V4)] : authorityHits(authority, 'unavailable');
    return buildResult(
      { subject, hits, facts: { ...base, v4_status: v4.ok ? v4.value.status : null }, advice: ADVICE },
      PROGRAM_FLAGS,
    );
  }
  if (program.owner !== BPF_UPGRADEABLE_LOADER) return notAProgram(facts);

  const state = facts.programData ? decodeUpgradeableLoaderState(facts.programData.data) : null;
  if (state === null || !state.ok || state.value.kind !== 'programData') {
    return buildResult(
      {
        subject,
        hits: [
          {
            code: 'PROGRAM_CLOSED',
            strength: 1,
            evidence: { program_data: facts.programDataAddress },
            reason: 'its ProgramData account is gone: the program was closed',
          },
        ],
        facts: base,
        advice: ADVICE,
      },
      PROGRAM_FLAGS,
    );
  }
  const pd = state.value;
  const history = historyHits(facts, pd.slot);
  const hits: Hit[] = [
    ...(pd.upgradeAuthority === null
      ? [immutableHit(BPF_UPGRADEABLE_LOADER)]
      : authorityHits(pd.upgradeAuthority, facts.authorityAccount, facts.squadsVault, facts.governor)),
    ...history.hits,
  ];
  return buildResult(
    {
      subject,
      hits,
      facts: {
        ...base,
        program_data: facts.programDataAddress,
        upgrade_authority: pd.upgradeAuthority,
        authority_kind: pd.upgradeAuthority === null ? 'none' : authorityKind(pd.upgradeAuthority),
        last_deploy_slot: String(pd.slot),
        first_deploy_time: iso(history.firstDeploy),
        program_size_bytes: pd.executableLength,
      },
      advice: ADVICE,
      notes: history.notes,
    },
    PROGRAM_FLAGS,
  );
}
