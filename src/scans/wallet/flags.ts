/** Flags of /scan/wallet. Clients key on these codes: never rename or remove one. */
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import {
  DAY,
  DRAINED,
  FAILURE_RATE,
  FEW_TRANSACTIONS,
  FRESH_WALLET_S,
  HOUR,
  QUICK_FIRST_ACTION_S,
} from './thresholds.js';

export const WALLET_FLAGS = {
  NOT_A_WALLET: {
    severity: 'medium',
    meaning:
      'The address is not a wallet but another kind of account (token account, mint, program, program-controlled address).',
    evidenceKeys: ['account_kind', 'owner'],
  },
  WALLET_UNUSED: {
    severity: 'medium',
    meaning: 'No account and no transaction exist for this address: nothing is known about who controls it.',
    evidenceKeys: ['address'],
    confidencePenalty: 0.3,
  },
  FRESH_WALLET: {
    severity: 'medium',
    meaning: `The wallet first appeared on chain less than ${FRESH_WALLET_S.any / DAY} days ago (strongest under ${FRESH_WALLET_S.strongest / HOUR} hours), a common trait of burner wallets.`,
    evidenceKeys: ['first_seen', 'age_hours'],
  },
  FEW_TRANSACTIONS: {
    severity: 'low',
    meaning: `The wallet has fewer than ${FEW_TRANSACTIONS} transactions in all: there is little history to judge it by.`,
    evidenceKeys: ['transactions'],
  },
  FUNDED_THEN_DRAINED: {
    severity: 'high',
    meaning: `The wallet was funded and then sent out almost everything it received (${DRAINED.sentPercent} % or more of its first funding in one transaction, keeping under ${DRAINED.keptUnderPercent} % of it): the pattern of a burner or a pass-through.`,
    evidenceKeys: ['funding_signature', 'drain_signature', 'drained_lamports', 'balance_lamports'],
  },
  QUICK_FIRST_ACTION: {
    severity: 'medium',
    meaning: `The wallet acted within ${QUICK_FIRST_ACTION_S} seconds of being funded, as scripted burners do.`,
    evidenceKeys: ['funding_signature', 'first_action_signature', 'seconds_after_funding'],
  },
  HIGH_FAILURE_RATE: {
    severity: 'medium',
    meaning: `A large share of the wallet's recent transactions failed (${percent(FAILURE_RATE.warn)} or more of at least ${FAILURE_RATE.minTransactions}; full strength at ${percent(FAILURE_RATE.full)}): bots, spam or failed exploits.`,
    evidenceKeys: ['failed', 'total', 'failure_rate'],
  },
  HISTORY_TRUNCATED: {
    severity: 'info',
    meaning: 'Only the most recent transactions were read: age and counts are lower bounds.',
    evidenceKeys: ['transactions_read'],
    confidencePenalty: 0.1,
  },
  HISTORY_UNAVAILABLE: {
    severity: 'low',
    meaning: 'The transaction history could not be read: activity and burner patterns are unknown.',
    evidenceKeys: ['reason'],
    confidencePenalty: 0.4,
  },
} as const satisfies FlagCatalog;

export type WalletFlag = keyof typeof WALLET_FLAGS;
