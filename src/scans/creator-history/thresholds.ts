/**
 * The creator-history rules' thresholds, read by the rules (history-assess.ts, hits.ts) and by
 * the flags' documented meaning (flags.ts), so docs/risk-model.md prints the numbers the code uses.
 */

/** A curve that never graduated and holds under this much real SOL (lamports; 0.5 SOL) is dead. */
export const DEAD_RESERVES = 500_000_000n;
/** Buys within this many seconds of the creation are the dev buy (pump's create-and-buy, a bundle). */
export const DEV_BUY_WINDOW_S = 60;
/** Selling this share of the dev buy… */
export const DUMP_SHARE = 0.5;
/** …within this many seconds of the creation is a dev dump. */
export const DUMP_WINDOW_S = 30 * 60;
/** A dead coin whose creator sold this share of its dev buy… */
export const YOUNG_EXIT_SHARE = 0.9;
/** …within this many seconds of the creation died young. */
export const YOUNG_EXIT_S = 60 * 60;
/** CREATOR_SERIAL_LAUNCHER: at least this many launches (this one included)… */
export const SERIAL_MIN_LAUNCHES = 5;
/** …with this share or more dead on their curve; or this many earlier coins that died young. */
export const SERIAL_DEAD_SHARE = 0.6;
export const SERIAL_YOUNG_DEATHS = 3;
/** CREATOR_DEV_DUMP on this coin, or on this many earlier coins (a habit). */
export const DUMP_HABIT = 2;
