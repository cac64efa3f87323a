/**
 * Flags of a pump.fun coin's creator history, raised by /scan/pumpfun and by /scan/token on a
 * pump.fun mint alike (hits.ts). Never rename or remove a code.
 */
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import {
  DEAD_RESERVES,
  DUMP_HABIT,
  DUMP_SHARE,
  DUMP_WINDOW_S,
  SERIAL_DEAD_SHARE,
  SERIAL_MIN_LAUNCHES,
  SERIAL_YOUNG_DEATHS,
  YOUNG_EXIT_S,
  YOUNG_EXIT_SHARE,
} from './thresholds.js';

const deadUnder = `${Number(DEAD_RESERVES) / 1e9} SOL`;

export const CREATOR_HISTORY_FLAGS = {
  CREATOR_SERIAL_LAUNCHER: {
    severity: 'high',
    meaning: `The creator launched many coins, most of which died on their curve (${SERIAL_MIN_LAUNCHES} or more launches, ${percent(SERIAL_DEAD_SHARE)} or more of them left on a curve that never graduated, holding under ${deadUnder}), or several that died young (${SERIAL_YOUNG_DEATHS} or more earlier coins dead whose creator sold ${percent(YOUNG_EXIT_SHARE)} of its dev buy within ${YOUNG_EXIT_S / 60} minutes of creating them): the pattern of pump-and-dump launchers. Launches are found through getProgramAccounts where the RPC serves it, else through the creator’s own transactions and token accounts, so the count may be a lower bound (the evidence says whether the list is complete).`,
    evidenceKeys: ['creator', 'launches', 'dead', 'graduated'],
  },
  CREATOR_DEV_DUMP: {
    severity: 'high',
    meaning: `The creator sold ${percent(DUMP_SHARE)} or more of its creation buy within ${DUMP_WINDOW_S / 60} minutes of creating the coin (a dev dump into the buyers who followed), on this coin or on ${DUMP_HABIT} or more of its earlier coins.`,
    evidenceKeys: ['creator', 'mint', 'dev_buy', 'sold', 'seconds_after_creation', 'earlier_dumps'],
  },
  CREATOR_HISTORY_UNAVAILABLE: {
    severity: 'low',
    meaning:
      "The creator's other launches could not be read, or only in part (no source that lists them all ran: the RPC refused getProgramAccounts, the creator's history was longer than the scan reads, or it has no token account of this coin): serial-launcher and dev-dump risk is unknown.",
    evidenceKeys: ['reason'],
    confidencePenalty: 0.2,
  },
} as const satisfies FlagCatalog;
export type CreatorHistoryFlag = keyof typeof CREATOR_HISTORY_FLAGS;
