/**
 * The liquidity rules' thresholds, read by the rules (assess.ts, lockers.ts, positions*.ts), by
 * the reads they bound and by the flags' documented meaning (flags.ts, positions-flags.ts), so
 * docs/risk-model.md prints the numbers the code uses. The trade-size ones are in trade/.
 */

/** LIQUIDITY_THIN: quote depth over market value; raised under `warn`, full strength at `full`. */
export const THIN = { warn: 0.02, full: 0.005 } as const;
/** A pool this deep (whole SOL or USDC) is enough to exit any ordinary position, whatever the market value. */
export const DEEP_ENOUGH = { SOL: 5_000, USDC: 1_000_000 } as const;
/** LP_PULLABLE: single keys' share of a pool's LP; raised from `warn`, full strength at `full`. */
export const LP_PULLABLE = { warn: 0.1, full: 0.5 } as const;
/** LP_BURNED_OR_LOCKED: the share of a pool's LP burned or locked. */
export const LP_SAFE_SHARE = 0.9;
/** LP a lock releases within this long of the scan counts as pullable: a week is less than any trade horizon. */
export const UNLOCK_HORIZON_SECONDS = 7 * 86_400;
/** LIQUIDITY_OWNER_CONCENTRATED: one wallet's share of a concentrated pool; from `warn`, full at `full`. */
export const OWNER_CONCENTRATED = { warn: 0.5, full: 0.9 } as const;
/** Owners resolved through the position NFT: the largest in-range positions of each pool. */
export const OWNERS_RESOLVED = 5;

/**
 * How long an optional program-wide search (the AMM v4 pool search, the positions listing) may
 * take. The scan's own deadline is SCAN_TIMEOUT_MS (20 s by default); a search still running then
 * would hold the round's Promise.all past it and fail the whole scan. 4 s is several times what a
 * filtered getProgramAccounts takes on a healthy provider, and leaves the rounds that follow it (an
 * AMM v4 pool's vault and LP holders, then their owners; the positions' two owner rounds) time to
 * finish well inside the deadline: a slower search ends as a refusal (unknown, lower confidence).
 */
export const OPTIONAL_SEARCH_MS = 4_000;
