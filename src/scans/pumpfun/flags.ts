/** Flags of /scan/pumpfun, beyond the token flags it shares. Never rename or remove a code. */
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import { TOKEN_FLAGS } from '../token/flags.js';
import {
  CREATOR_HOLDING_SHARE,
  CURVE_EARLY_PROGRESS,
  STANDARD_DECIMALS,
  STANDARD_TOKENS,
} from './thresholds.js';

const PUMP_ONLY = {
  NOT_PUMPFUN_MINT: {
    severity: 'high',
    meaning:
      'The mint was not launched on pump.fun (no bonding curve owned by the pump program): the pump.fun checks do not apply.',
    evidenceKeys: ['bonding_curve', 'curve_owner'],
  },
  PUMP_NONSTANDARD_SUPPLY: {
    severity: 'high',
    meaning: `Supply or decimals differ from every standard pump.fun coin (${STANDARD_TOKENS / 1e9} billion tokens, ${STANDARD_DECIMALS} decimals).`,
    evidenceKeys: ['supply', 'decimals'],
  },
  CREATOR_HOLDS_SUPPLY: {
    severity: 'medium',
    meaning: `The creator still holds a large share of the coin (from ${percent(CREATOR_HOLDING_SHARE.warn)}; full strength at ${percent(CREATOR_HOLDING_SHARE.full)}) and can dump it on buyers.`,
    evidenceKeys: ['creator', 'share'],
  },
  CURVE_EARLY: {
    severity: 'low',
    meaning: `Less than ${percent(CURVE_EARLY_PROGRESS)} of the bonding curve has sold: the coin is brand new and thinly traded.`,
    evidenceKeys: ['progress'],
  },
} as const satisfies FlagCatalog;

/** Every code /scan/pumpfun can raise: its own and the token checks it runs on the mint. */
export const PUMPFUN_FLAGS = { ...TOKEN_FLAGS, ...PUMP_ONLY } as const satisfies FlagCatalog;
export type PumpfunFlag = keyof typeof PUMPFUN_FLAGS;
