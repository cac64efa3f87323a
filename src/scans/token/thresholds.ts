/**
 * The token rules' thresholds, read by the rules (rules/, launch/, insiders/,
 * transfer-simulation/) and by the flags' documented meaning (flags.ts), so docs/risk-model.md
 * prints the numbers the code uses.
 */

/** TOKEN_NEW: a mint younger than `any` hours; full strength under `full`. */
export const NEW_TOKEN_HOURS = { full: 24, any: 7 * 24 } as const;
/** TRANSFER_FEE's severity by the rate in force, in basis points: low below `medium`. */
export const TRANSFER_FEE_BPS = { medium: 100, high: 1_000, critical: 2_500 } as const;
/** TRANSFER_UNDECLARED_CUT is critical from this share of the amount sent. */
export const UNDECLARED_CUT_CRITICAL = 0.1;
/** HOLDER_TOP1_HIGH: one holder's share of the circulating supply; raised from `warn`, full at `full`. */
export const TOP1_SHARE = { warn: 0.2, full: 0.5 } as const;
/** HOLDER_TOP10_HIGH: the ten largest holders' share; raised from `warn`, full at `full`. */
export const TOP10_SHARE = { warn: 0.5, full: 0.8 } as const;
/** AUTHORITY_HOLDS_SUPPLY: the mint or freeze authority's own share of the supply. */
export const AUTHORITY_HOLDING_SHARE = 0.05;
/** The launch window: the creation slot and this many after it (3: ≈ 1.6 s at 400 ms a slot). */
export const LAUNCH_WINDOW_SLOTS = 3;
/** LAUNCH_BUNDLED: distinct non-creator wallets buying in the creation slot: from `warn`, full at `full`. */
export const BUNDLE_WALLETS = { warn: 3, full: 10 } as const;
/** LAUNCH_SNIPERS_HOLD: launch-window buyers' combined share still held: from `warn`, full at `full`. */
export const SNIPERS_HELD_SHARE = { warn: 0.1, full: 0.3 } as const;
/** LAUNCH_INSIDERS: buyers one wallet other than the creator must fund to be a common funder. */
export const COMMON_FUNDER_BUYERS = 3;
/** INSIDER_CLUSTER: a common funder makes a cluster from this many fresh wallets (one or two could be chance). */
export const MIN_FRESH_WALLETS = 3;
/** INSIDER_CLUSTER: combined share of supply from which a cluster is medium, and from which it is high. */
export const CLUSTER_SHARE_MEDIUM = 0.05;
export const CLUSTER_SHARE_HIGH = 0.2;
/** Hops followed back from a wallet to who funded it. */
export const MAX_HOPS = 2;
