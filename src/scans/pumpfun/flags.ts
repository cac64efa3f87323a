/** Flags of /scan/pumpfun, beyond the token flags it shares. Never rename or remove a code. */
import type { FlagCatalog } from '../risk/model.js';
import { TOKEN_FLAGS } from '../token/flags.js';

const PUMP_ONLY = {
  NOT_PUMPFUN_MINT: {
    severity: 'high',
    meaning:
      'The mint was not launched on pump.fun (no bonding curve owned by the pump program): the pump.fun checks do not apply.',
    evidenceKeys: ['bonding_curve', 'curve_owner'],
  },
  PUMP_NONSTANDARD_SUPPLY: {
    severity: 'high',
    meaning: 'Supply or decimals differ from every standard pump.fun coin (1 billion tokens, 6 decimals).',
    evidenceKeys: ['supply', 'decimals'],
  },
  CREATOR_SERIAL_LAUNCHER: {
    severity: 'high',
    meaning:
      'The creator launched many coins, most of which died on their curve, or several that died young (the creator sold out within an hour): the pattern of pump-and-dump launchers. Launches are found through getProgramAccounts where the RPC serves it, else through the creator’s own transactions and token accounts, so the count may be a lower bound (the evidence says whether the list is complete).',
    evidenceKeys: ['creator', 'launches', 'dead', 'graduated'],
  },
  CREATOR_DEV_DUMP: {
    severity: 'high',
    meaning:
      'The creator sold half or more of its creation buy within 30 minutes of creating the coin (a dev dump into the buyers who followed), on this coin or on two or more of its earlier coins.',
    evidenceKeys: ['creator', 'mint', 'dev_buy', 'sold', 'seconds_after_creation', 'earlier_dumps'],
  },
  CREATOR_HOLDS_SUPPLY: {
    severity: 'medium',
    meaning:
      'The creator still holds a large share of the coin (from 5 %; full strength at 20 %) and can dump it on buyers.',
    evidenceKeys: ['creator', 'share'],
  },
  CURVE_EARLY: {
    severity: 'low',
    meaning: 'Less than 10 % of the bonding curve has sold: the coin is brand new and thinly traded.',
    evidenceKeys: ['progress'],
  },
  CREATOR_HISTORY_UNAVAILABLE: {
    severity: 'low',
    meaning:
      "The creator's other launches could not be read, or only in part (no source that lists them all ran: the RPC refused getProgramAccounts, the creator's history was longer than the scan reads, or it has no token account of this coin): serial-launcher and dev-dump risk is unknown.",
    evidenceKeys: ['reason'],
    confidencePenalty: 0.2,
  },
} as const satisfies FlagCatalog;

/** Every code /scan/pumpfun can raise: its own and the token checks it runs on the mint. */
export const PUMPFUN_FLAGS = { ...TOKEN_FLAGS, ...PUMP_ONLY } as const satisfies FlagCatalog;
export type PumpfunFlag = keyof typeof PUMPFUN_FLAGS;
