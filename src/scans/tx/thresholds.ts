/**
 * The fee and outflow thresholds /verify/tx and /simulate/tx share, read by both assessments and
 * by the flags' documented meaning (flags.ts), so docs/risk-model.md prints the numbers the code
 * uses; and how both write amounts of SOL.
 */

const SOL = 1_000_000_000n;
/** TX_HIGH_FEE: a fee over this many lamports. */
export const HIGH_FEE = SOL / 100n;
/** TX_SIGNER_LARGE_SOL_OUTFLOW: a signer sending out more than this many lamports… */
export const LARGE_OUTFLOW = 10n * SOL;
/** …or more than this percentage of its balance. */
export const MOST_OF_BALANCE_PERCENT = 90n;

/** `part` is more than MOST_OF_BALANCE_PERCENT of a positive `whole` (exact, in bigints). */
export const mostOf = (part: bigint, whole: bigint) =>
  whole > 0n && part * 100n > whole * MOST_OF_BALANCE_PERCENT;
export const sol = (lamports: bigint) => `${(Number(lamports) / 1e9).toFixed(6).replace(/\.?0+$/, '')} SOL`;
