/**
 * The pump.fun rules' thresholds, read by the rules (assess.ts) and by the flags' documented
 * meaning (flags.ts), so docs/risk-model.md prints the numbers the code uses.
 */

/** Every standard pump.fun coin: this many whole tokens at this many decimals. */
export const STANDARD_TOKENS = 1_000_000_000;
export const STANDARD_DECIMALS = 6;
export const STANDARD_SUPPLY = BigInt(STANDARD_TOKENS) * 10n ** BigInt(STANDARD_DECIMALS);
/** CREATOR_HOLDS_SUPPLY: the creator's share of the supply; raised from `warn`, full strength at `full`. */
export const CREATOR_HOLDING_SHARE = { warn: 0.05, full: 0.2 } as const;
/** CURVE_EARLY: less than this share of the bonding curve sold. */
export const CURVE_EARLY_PROGRESS = 0.1;
