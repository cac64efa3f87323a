/**
 * The trade-size rules' thresholds, read by the rules (assess.ts) and by the flags' documented
 * meaning (flags.ts), so the two cannot drift apart.
 */

/** Trade sizes quoted, in dollars. */
export const TRADE_SIZES_USD = [100, 1_000, 10_000] as const;
/** The size the flags judge. */
export const FLAGGED_TRADE_USD = 1_000;
/** TRADE_PRICE_IMPACT_HIGH: the worse of a buy's and a sale's impact; raised from `warn`, full strength at `full`. */
export const TRADE_PRICE_IMPACT = { warn: 0.1, full: 0.3 } as const;
/** TRADE_ROUND_TRIP_LOSS_HIGH: the share of a buy lost by selling it back; raised from `warn`, full at `full`. */
export const TRADE_ROUND_TRIP_LOSS = { warn: 0.2, full: 0.5 } as const;
