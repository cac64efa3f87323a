/**
 * Flags of /simulate/tx. Where a flag means what a /verify/tx flag means (an approval to a
 * third party, an owner change, …) it is that flag, with its code and definition: both endpoints
 * speak one language. Clients key on these codes: never rename or remove one.
 */
import type { FlagCatalog } from '../risk/model.js';
import { TX_FLAGS } from '../tx/flags.js';
import { TOKEN_OUTFLOW_PERCENT } from './thresholds.js';

export const SIMULATE_FLAGS = {
  SIM_WOULD_FAIL: {
    severity: 'high',
    meaning:
      'The transaction would fail if sent now: none of its effects would happen, and a signer would still pay its fee.',
    evidenceKeys: ['err', 'failed_instruction', 'failed_program', 'custom_code', 'error_name', 'last_logs'],
  },
  SIM_SIGNER_TOKEN_OUTFLOW: {
    severity: 'medium',
    meaning: `A signer would lose most of a token balance (over ${TOKEN_OUTFLOW_PERCENT} % of one token account's amount).`,
    evidenceKeys: ['owner', 'token_account', 'mint', 'pre_amount', 'post_amount'],
  },
  SIM_MINT_AUTHORITY_HANDED_OVER: {
    severity: 'high',
    meaning:
      "A mint's minting or freezing power would pass to an address that did not sign: it could then mint without limit or freeze every holder.",
    evidenceKeys: ['mint', 'authority_type', 'previous_authority', 'new_authority'],
  },
  SIM_UNKNOWN_PROGRAM: {
    severity: 'low',
    meaning:
      'The transaction invokes a program this service does not know; what it does is seen only through the simulated balance and state changes.',
    evidenceKeys: ['programs'],
  },
  SIM_UPGRADEABLE_UNKNOWN_PROGRAM: {
    severity: 'medium',
    meaning:
      'An unknown program it invokes can be upgraded by a single key: its code, and what the transaction does, can change between this simulation and the signature.',
    evidenceKeys: ['program', 'upgrade_authority'],
  },
  SIM_STATE_SLOTS_DIFFER: {
    severity: 'info',
    meaning:
      'The RPC answered the "before" read and the simulation at different slots; a balance that moved in between would show as a change.',
    evidenceKeys: ['pre_slot', 'simulated_slot'],
    confidencePenalty: 0.1,
  },
  TX_SIGNER_LARGE_SOL_OUTFLOW: TX_FLAGS.TX_SIGNER_LARGE_SOL_OUTFLOW,
  TX_TOKEN_APPROVE_THIRD_PARTY: TX_FLAGS.TX_TOKEN_APPROVE_THIRD_PARTY,
  TX_TOKEN_ACCOUNT_OWNER_CHANGED: TX_FLAGS.TX_TOKEN_ACCOUNT_OWNER_CHANGED,
  TX_SYSTEM_ASSIGN: TX_FLAGS.TX_SYSTEM_ASSIGN,
  TX_CLOSE_TO_THIRD_PARTY: TX_FLAGS.TX_CLOSE_TO_THIRD_PARTY,
  TX_DURABLE_NONCE: TX_FLAGS.TX_DURABLE_NONCE,
  TX_HIGH_FEE: TX_FLAGS.TX_HIGH_FEE,
} as const satisfies FlagCatalog;

export type SimulateFlag = keyof typeof SIMULATE_FLAGS;
