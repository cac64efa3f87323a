/** Flags of /scan/program. Clients key on these codes: never rename or remove one. */
import type { FlagCatalog } from '../risk/model.js';
import {
  AUTHORITY_CHANGE_WINDOW_S,
  FREQUENT_UPGRADES,
  NEW_PROGRAM_S,
  RECENT_UPGRADE_S,
  span,
} from './thresholds.js';

export const PROGRAM_FLAGS = {
  NOT_A_PROGRAM: {
    severity: 'high',
    meaning:
      'The address is not an executable program (missing, or an ordinary account): nothing can be integrated here.',
    evidenceKeys: ['exists', 'owner', 'executable'],
  },
  PROGRAM_CLOSED: {
    severity: 'high',
    meaning: 'The program was closed: its code account is gone and calls to it fail.',
    evidenceKeys: ['program_data'],
  },
  PROGRAM_IMMUTABLE: {
    severity: 'info',
    meaning: 'Nobody can change the program code any more.',
    evidenceKeys: ['loader'],
  },
  UPGRADE_AUTHORITY_SINGLE_KEY: {
    severity: 'high',
    meaning: 'One private key can replace the program code at any time, without notice.',
    evidenceKeys: ['upgrade_authority'],
  },
  UPGRADE_AUTHORITY_MULTISIG: {
    severity: 'low',
    meaning:
      'A multisig (Squads v4 or v3, or the Coral multisig) holds the upgrade authority: several members must approve an upgrade.',
    evidenceKeys: ['multisig', 'threshold', 'voters', 'time_lock_seconds'],
  },
  MULTISIG_CONFIG_AUTHORITY_SET: {
    severity: 'medium',
    meaning: 'A single config authority can change the multisig members and threshold without a vote.',
    evidenceKeys: ['multisig', 'config_authority'],
  },
  UPGRADE_AUTHORITY_GOVERNANCE: {
    severity: 'low',
    meaning:
      "An SPL Governance (Realms) DAO holds the upgrade authority: an upgrade needs a proposal that passes the governance's vote, then waits its hold-up time.",
    evidenceKeys: [
      'governance',
      'realm',
      'community_vote_threshold',
      'council_vote_threshold',
      'voting_time_seconds',
      'hold_up_seconds',
    ],
  },
  UPGRADE_AUTHORITY_UNKNOWN_PDA: {
    severity: 'medium',
    meaning:
      'The upgrade authority is an address controlled by a program we do not recognise: who can upgrade depends on that program.',
    evidenceKeys: ['upgrade_authority', 'authority_owner'],
  },
  RECENTLY_UPGRADED: {
    severity: 'medium',
    meaning: `The program code changed recently (within ${span(RECENT_UPGRADE_S.any)}; strongest within ${span(RECENT_UPGRADE_S.strongest)}): new code has had little scrutiny.`,
    evidenceKeys: ['last_deploy_slot', 'last_deploy_time', 'hours_since'],
  },
  FREQUENT_UPGRADES: {
    severity: 'medium',
    meaning: `The program was upgraded ${FREQUENT_UPGRADES.count} or more times in ${span(FREQUENT_UPGRADES.windowS)}.`,
    evidenceKeys: ['upgrades_30d', 'signatures'],
  },
  AUTHORITY_CHANGED_RECENTLY: {
    severity: 'medium',
    meaning: `The upgrade authority changed hands within the last ${span(AUTHORITY_CHANGE_WINDOW_S)}.`,
    evidenceKeys: ['signature', 'new_authority', 'time'],
  },
  PROGRAM_NEW: {
    severity: 'medium',
    meaning: `The program was first deployed less than ${span(NEW_PROGRAM_S)} ago.`,
    evidenceKeys: ['deployed_at'],
  },
  HISTORY_TRUNCATED: {
    severity: 'info',
    meaning: 'Only the most recent management transactions were read; older upgrades are not counted.',
    evidenceKeys: ['signatures_read'],
    confidencePenalty: 0.1,
  },
  HISTORY_UNAVAILABLE: {
    severity: 'low',
    meaning: 'The upgrade history could not be read; upgrades and authority changes are unknown.',
    evidenceKeys: ['reason'],
    confidencePenalty: 0.3,
  },
  AUTHORITY_UNAVAILABLE: {
    severity: 'low',
    meaning: 'The upgrade authority account could not be read; whether it is a multisig is unknown.',
    evidenceKeys: ['upgrade_authority', 'reason'],
    confidencePenalty: 0.2,
  },
} as const satisfies FlagCatalog;

export type ProgramFlag = keyof typeof PROGRAM_FLAGS;
