/**
 * The wallet rules' thresholds, read by the rules (assess.ts) and by the flags' documented
 * meaning (flags.ts), so docs/risk-model.md prints the numbers the code uses.
 */

export const HOUR = 3600;
export const DAY = 24 * HOUR;

/** FRESH_WALLET: first seen within `any` seconds; full strength within `strongest`. */
export const FRESH_WALLET_S = { strongest: DAY, any: 7 * DAY } as const;
/** FEW_TRANSACTIONS: fewer than this many transactions in all. */
export const FEW_TRANSACTIONS = 5;
/** QUICK_FIRST_ACTION: the wallet signed within this many seconds of its first funding. */
export const QUICK_FIRST_ACTION_S = 60;
/** HIGH_FAILURE_RATE: failed share of at least `minTransactions`; raised from `warn`, full strength at `full`. */
export const FAILURE_RATE = { warn: 0.3, full: 0.6, minTransactions: 5 } as const;
/** FUNDED_THEN_DRAINED: one transaction sent out this percentage or more of the funding, and the balance kept is under `keptUnderPercent`. */
export const DRAINED = { sentPercent: 90n, keptUnderPercent: 1n } as const;
