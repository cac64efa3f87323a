/**
 * Pure: what one unit of each quote is worth in dollars, read on chain. SOL from Pyth's SOL/USD
 * price update account (read with the mint, in the scan's first round); USDC at par. Without a
 * usable SOL price, SOL pools are not valued, and the evidence says why: no dollars are guessed.
 */
import type { Address } from '@solana/kit';
import {
  decodePriceUpdateV2,
  PYTH_SOL_USD_ACCOUNT,
  PYTH_SOL_USD_FEED_ID,
} from '../../../solana/decoders/pyth-price-update.js';
import { USDC_MINT, WSOL_MINT } from '../../../solana/programs.js';
import { round } from '../../risk/numbers.js';
import type { RawAccount } from '../../token-facts/model.js';

/** A price whose confidence interval is wider than this share of it is not used. */
export const MAX_PRICE_CONFIDENCE = 0.05;

export interface UsdPrices {
  /** Dollars per whole unit (UI amount) of each quote mint that has a price. */
  readonly perUnit: ReadonlyMap<Address, number>;
  /** Where each price came from, for the evidence. */
  readonly sources: Readonly<Record<string, unknown>>;
}

function solUsd(
  account: RawAccount | null | undefined,
  nowSeconds: number,
): { usd: number | null; source: Record<string, unknown> } {
  const where = { account: PYTH_SOL_USD_ACCOUNT, oracle: 'Pyth SOL/USD price update (pull oracle)' };
  if (account === undefined) return { usd: null, source: { ...where, why: 'not read by this scan' } };
  if (account === null) return { usd: null, source: { ...where, why: 'the account does not exist' } };
  const d = decodePriceUpdateV2(account.data, account.owner);
  if (!d.ok) return { usd: null, source: { ...where, why: `not a Pyth price update: ${d.detail}` } };
  const u = d.value;
  if (u.feedId !== PYTH_SOL_USD_FEED_ID)
    return { usd: null, source: { ...where, why: `feed ${u.feedId} is not SOL/USD` } };
  const scale = 10 ** u.exponent;
  const usd = Number(u.price) * scale;
  const conf = Number(u.conf) * scale;
  if (!(usd > 0) || !Number.isFinite(usd) || u.exponent > 0 || u.exponent < -18)
    return { usd: null, source: { ...where, why: `price ${u.price}e${u.exponent} is not a usable price` } };
  if (conf / usd > MAX_PRICE_CONFIDENCE)
    return { usd: null, source: { ...where, why: `its confidence interval (±${round(conf)}) is wide` } };
  const published = Number(u.publishTime);
  return {
    usd,
    source: {
      ...where,
      usd: round(usd),
      confidence: round(conf),
      published_at:
        Number.isFinite(published) && Math.abs(published) < 8.64e12
          ? new Date(published * 1000).toISOString()
          : null,
      age_seconds: nowSeconds - published,
      fully_verified: u.fullyVerified,
    },
  };
}

export function usdPrices(solUsdAccount: RawAccount | null | undefined, nowSeconds: number): UsdPrices {
  const sol = solUsd(solUsdAccount, nowSeconds);
  const perUnit = new Map<Address, number>([[USDC_MINT, 1]]);
  if (sol.usd !== null) perUnit.set(WSOL_MINT, sol.usd);
  return { perUnit, sources: { SOL: sol.source, USDC: { usd: 1, why: 'taken at par' } } };
}
