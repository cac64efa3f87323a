/** Flags of /verify/tx. Clients key on these codes: never rename or remove one. */
import type { FlagCatalog } from '../risk/model.js';
import { HIGH_FEE, LARGE_OUTFLOW, MOST_OF_BALANCE_PERCENT, sol } from './thresholds.js';

export const TX_FLAGS = {
  TX_NOT_FOUND: {
    severity: 'medium',
    meaning:
      'No transaction with this signature is known to the RPC: it never landed, was dropped, or is too old for its history.',
    evidenceKeys: ['signature'],
    confidencePenalty: 0.5,
  },
  TX_FAILED: {
    severity: 'high',
    meaning: 'The transaction landed but failed: none of its effects happened, though its fee was charged.',
    evidenceKeys: ['err', 'failed_instruction', 'failed_program', 'custom_code'],
  },
  TX_NOT_FINALIZED: {
    severity: 'low',
    meaning: 'The transaction is not finalized yet; in rare cases a confirmed transaction is rolled back.',
    evidenceKeys: ['confirmation_status'],
  },
  TX_HIGH_FEE: {
    severity: 'low',
    meaning: `The fee is unusually high (over ${sol(HIGH_FEE)}), usually a large priority fee.`,
    evidenceKeys: ['fee_lamports', 'priority_fee_lamports', 'compute_unit_price_micro_lamports'],
  },
  TX_SIGNER_LARGE_SOL_OUTFLOW: {
    severity: 'medium',
    meaning: `A signer lost most of its SOL in this transaction (over ${MOST_OF_BALANCE_PERCENT} % of its balance, or over ${sol(LARGE_OUTFLOW)}).`,
    evidenceKeys: ['signer', 'pre_lamports', 'post_lamports', 'change_excluding_fee'],
  },
  TX_TOKEN_APPROVE_THIRD_PARTY: {
    severity: 'high',
    meaning:
      'A token account was approved for spending by an address that did not sign: it can move those tokens later.',
    evidenceKeys: ['token_account', 'delegate', 'amount'],
  },
  TX_TOKEN_ACCOUNT_OWNER_CHANGED: {
    severity: 'critical',
    meaning:
      'Ownership of a token account was handed to an address that did not sign: the tokens now belong to it.',
    evidenceKeys: ['token_account', 'new_owner'],
    floor: true,
  },
  TX_SYSTEM_ASSIGN: {
    severity: 'critical',
    meaning: 'A signer wallet was assigned to a program: the program, not the key, now controls it.',
    evidenceKeys: ['account', 'program'],
    floor: true,
  },
  TX_CLOSE_TO_THIRD_PARTY: {
    severity: 'medium',
    meaning: 'A token account was closed and its rent sent to an address that did not sign.',
    evidenceKeys: ['token_account', 'destination'],
  },
  TX_DURABLE_NONCE: {
    severity: 'medium',
    meaning:
      'The transaction uses a durable nonce: such transactions can be signed long before they are sent, a common drainer technique.',
    evidenceKeys: ['nonce_account'],
  },
} as const satisfies FlagCatalog;

export type TxFlag = keyof typeof TX_FLAGS;
