/** Flags of /scan/wallet. Clients key on these codes: never rename or remove one. */
import type { FlagCatalog } from '../risk/model.js';

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
    meaning:
      'The wallet first appeared on chain less than 7 days ago (strongest under 24 hours), a common trait of burner wallets.',
    evidenceKeys: ['first_seen', 'age_hours'],
  },
  FEW_TRANSACTIONS: {
    severity: 'low',
    meaning: 'The wallet has fewer than 5 transactions in all: there is little history to judge it by.',
    evidenceKeys: ['transactions'],
  },
  FUNDED_THEN_DRAINED: {
    severity: 'high',
    meaning:
      'The wallet was funded and then sent out almost everything it received: the pattern of a burner or a pass-through.',
    evidenceKeys: ['funding_signature', 'drain_signature', 'drained_lamports', 'balance_lamports'],
  },
  QUICK_FIRST_ACTION: {
    severity: 'medium',
    meaning: 'The wallet acted within a minute of being funded, as scripted burners do.',
    evidenceKeys: ['funding_signature', 'first_action_signature', 'seconds_after_funding'],
  },
  HIGH_FAILURE_RATE: {
    severity: 'medium',
    meaning:
      "A large share of the wallet's recent transactions failed (30 % or more of at least 5): bots, spam or failed exploits.",
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
