/** Liquidity flags, part of the token flag catalog (so /scan/pumpfun has them too). Never rename or remove a code. */
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import {
  DEEP_ENOUGH,
  LP_PULLABLE,
  LP_SAFE_SHARE,
  OPTIONAL_SEARCH_MS,
  THIN,
  UNLOCK_HORIZON_SECONDS,
} from './thresholds.js';
import { FLAGGED_TRADE_USD, TRADE_PRICE_IMPACT, TRADE_ROUND_TRIP_LOSS } from './trade/thresholds.js';

const atSize = `$${FLAGGED_TRADE_USD.toLocaleString('en-US')}`;
const horizon = `${UNLOCK_HORIZON_SECONDS / 86_400} days`;
const deep = `${DEEP_ENOUGH.SOL.toLocaleString('en-US')} SOL or ${DEEP_ENOUGH.USDC.toLocaleString('en-US')} USDC`;

export const LIQUIDITY_FLAGS = {
  MARKET_NONE: {
    severity: 'low',
    meaning:
      'No pool trading the token was found on PumpSwap, Raydium (AMM v4, CPMM, CLMM), Meteora (DLMM, DAMM v1, DAMM v2) or Orca Whirlpool, and no live pump.fun bonding curve: there may be nowhere to sell it. Meteora DAMM pools count when they pair the token with SOL or USDC at an address Meteora derives from the mints (customizable and permissionless pools, and the pools of the configs its bonding curve graduates into). Low, because pools on other venues (order books, other AMMs) or at other addresses are not checked.',
    evidenceKeys: ['dexes_checked', 'candidates_checked'],
  },
  LIQUIDITY_THIN: {
    severity: 'high',
    meaning: `The SOL or USDC in its pools is small next to its market value (pool price × supply): from under ${percent(THIN.warn)} of it, full strength at ${percent(THIN.full)}, unless a pool holds at least ${deep}. Selling even a small position moves the price a lot.`,
    evidenceKeys: ['liquidity_ratio', 'quote_depth', 'market_value', 'pools'],
  },
  LP_PULLABLE: {
    severity: 'high',
    meaning: `Wallets (single keys) hold ${percent(LP_PULLABLE.warn)} or more of a pool's LP tokens (full strength at ${percent(LP_PULLABLE.full)}): they can withdraw that share of the pool's liquidity at any time. LP in a Jupiter Lock escrow counts too when its creator can cancel the escrow (a cancel returns the locked LP to the creator) or its schedule releases it within ${horizon} (\`via\` names the locker), and the one it goes to is a single key; going to a program address (a multisig, a DAO, a vault), it counts as LP held under that program.`,
    evidenceKeys: ['pool', 'dex', 'lp_mint', 'pullable_share', 'wallets'],
  },
  LP_BURNED_OR_LOCKED: {
    severity: 'info',
    meaning: `At least ${percent(LP_SAFE_SHARE)} of a pool's LP tokens are burned or held by a recognised locker — Raydium LP lock (Burn & Earn), Jupiter Lock (a vesting escrow nobody can cancel, releasing nothing within ${horizon}) or a Meteora DAMM v1 lock escrow — so no key can pull that liquidity. Shown, not scored; \`lockers\` names each locker with its share (and, for Jupiter Lock, \`unlocks_at\`). LP under any other program address is not counted as locked.`,
    evidenceKeys: ['pool', 'dex', 'lp_mint', 'burned_share', 'locked_share', 'lockers'],
  },
  LIQUIDITY_UNAVAILABLE: {
    severity: 'low',
    meaning: `Some of the token's pools could not be read or located (an RPC read failed, the RPC refused the getProgramAccounts search for a Raydium AMM v4 pool seen only through its vault, or did not answer it within ${OPTIONAL_SEARCH_MS / 1000} s, or a Meteora DAMM pool seen only through its vault, at no address derivable from the mints): their depth or LP holders are unknown.`,
    evidenceKeys: ['reason', 'pools'],
    confidencePenalty: 0.1,
  },
  TRADE_PRICE_IMPACT_HIGH: {
    severity: 'medium',
    meaning: `A ${atSize} buy or sale through the token's best pool read moves the price ${percent(TRADE_PRICE_IMPACT.warn)} or more against the trader (full strength at ${percent(TRADE_PRICE_IMPACT.full)}), fees and Token-2022 transfer fees included, each pool priced by its own math (constant product, pump.fun's curve, the tick or bin arrays read around a concentrated pool's price) in dollars from Pyth's on-chain SOL/USD price. A trade that runs past the liquidity read counts with the impact of the part that filled, a lower bound.`,
    evidenceKeys: ['usd', 'pool', 'dex', 'buy_price_impact', 'sell_price_impact', 'exceeds_read_liquidity'],
  },
  TRADE_ROUND_TRIP_LOSS_HIGH: {
    severity: 'high',
    meaning: `Buying ${atSize} of the token through its best pool read and selling what arrives back, each against the pool as read, returns ${percent(TRADE_ROUND_TRIP_LOSS.warn)} less or worse (full strength at ${percent(TRADE_ROUND_TRIP_LOSS.full)}): pool fees, Token-2022 transfer fees and the price impact of both legs. An agent cannot get out of a position of that size without losing that much.`,
    evidenceKeys: ['usd', 'pool', 'dex', 'round_trip_loss'],
  },
} as const satisfies FlagCatalog;
