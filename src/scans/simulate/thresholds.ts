/**
 * The simulation's own thresholds (the ones it shares with /verify/tx are in ../tx/thresholds.ts),
 * read by the rules (assess.ts) and by the flags' documented meaning (flags.ts).
 */

/** SIM_SIGNER_TOKEN_OUTFLOW: a signer losing more than this percentage of one token account's amount. */
export const TOKEN_OUTFLOW_PERCENT = 90n;
