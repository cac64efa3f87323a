/**
 * Pure: the trade-size check. Every market the scan read is made a venue by its own math
 * (venues.ts), quoted at $100, $1,000 and $10,000 (sizes.ts) in dollars read on chain (usd.ts),
 * and the venue an agent would pick at each size is reported as `trade`. At $1,000, a high price
 * impact and a high round-trip loss raise TRADE_PRICE_IMPACT_HIGH and TRADE_ROUND_TRIP_LOSS_HIGH.
 */
import type { Address } from '@solana/kit';
import type { TransferFee } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import { pct, ramp } from '../../risk/numbers.js';
import type { RawAccount } from '../../token-facts/model.js';
import { QUOTES } from '../discover.js';
import { DEX_NAMES, type Market } from '../markets.js';
import type { Unquotable, Venue } from './model.js';
import { bestOf, quoteAt, type SizeQuote, wholeUnits, worstImpact } from './sizes.js';
import {
  FLAGGED_TRADE_USD,
  TRADE_PRICE_IMPACT,
  TRADE_ROUND_TRIP_LOSS,
  TRADE_SIZES_USD,
} from './thresholds.js';
import { usdPrices } from './usd.js';
import { venueOf } from './venues.js';

type TradeHit = FlagHit<'TRADE_PRICE_IMPACT_HIGH' | 'TRADE_ROUND_TRIP_LOSS_HIGH'>;

export interface TradeInputs {
  readonly markets: readonly Market[];
  readonly accounts: ReadonlyMap<Address, RawAccount | null>;
  readonly nowSeconds: number;
  /** Pyth's SOL/USD account as read (undefined: not read by this scan). */
  readonly solUsd: RawAccount | null | undefined;
  /** The Token-2022 transfer fee in force, if any. */
  readonly transferFee: TransferFee | null;
}

/** Each size at each priced venue, the best kept; or why no venue could quote it. */
function sizesOf(
  venues: readonly Venue[],
  prices: ReadonlyMap<Address, number>,
  fee: TransferFee | null,
): SizeQuote[] {
  return TRADE_SIZES_USD.map((usd) => {
    const quotes = venues.flatMap((v) => {
      const quote = QUOTES.get(v.market.quoteMint);
      const unit = prices.get(v.market.quoteMint);
      if (!quote || !unit) return [];
      const quoteIn = wholeUnits((usd / unit) * 10 ** quote.decimals);
      return [quoteAt(v, usd, quoteIn, quote.decimals, fee)];
    });
    return (
      bestOf(quotes) ??
      none(
        usd,
        venues.length === 0
          ? 'no pool read could be quoted'
          : 'no pool quoted in a quote with a dollar price',
      )
    );
  });
}

const none = (usd: number, why: string): SizeQuote => ({
  usd,
  pool: null,
  dex: null,
  quote_amount: null,
  buy_price_impact: null,
  sell_price_impact: null,
  round_trip_loss: null,
  exceeds_read_liquidity: null,
  why,
});

function hitsAt(q: SizeQuote | undefined): TradeHit[] {
  if (!q || q.pool === null) return [];
  const hits: TradeHit[] = [];
  const worst = worstImpact(q);
  if (worst !== null && worst >= TRADE_PRICE_IMPACT.warn)
    hits.push({
      code: 'TRADE_PRICE_IMPACT_HIGH',
      strength: ramp(worst, TRADE_PRICE_IMPACT.warn, TRADE_PRICE_IMPACT.full),
      evidence: { ...q },
      reason: `a $${q.usd.toLocaleString('en-US')} trade through its best pool (${q.dex}) moves the price ${q.exceeds_read_liquidity ? 'at least ' : ''}${pct(worst)}`,
    });
  const loss = q.round_trip_loss;
  if (loss !== null && loss >= TRADE_ROUND_TRIP_LOSS.warn)
    hits.push({
      code: 'TRADE_ROUND_TRIP_LOSS_HIGH',
      strength: ramp(loss, TRADE_ROUND_TRIP_LOSS.warn, TRADE_ROUND_TRIP_LOSS.full),
      evidence: { ...q },
      reason: `buying $${q.usd.toLocaleString('en-US')} of it and selling it back through its best pool (${q.dex}) loses ${pct(loss)}`,
    });
  return hits;
}

export function assessTrade(input: TradeInputs): { hits: TradeHit[]; summary: Record<string, unknown> } {
  const quoted = input.markets.map((m) => venueOf(m, input.accounts, input.nowSeconds));
  const venues = quoted.filter((v): v is Venue => !('why' in v));
  const unquoted = quoted.filter((v): v is Unquotable => 'why' in v);
  const prices = usdPrices(input.solUsd, input.nowSeconds);
  const trade = sizesOf(venues, prices.perUnit, input.transferFee);
  return {
    hits: hitsAt(trade.find((q) => q.usd === FLAGGED_TRADE_USD)),
    summary: {
      trade,
      trade_usd_prices: prices.sources,
      ...(unquoted.length
        ? {
            trade_pools_not_quoted: unquoted.map((u) => ({
              pool: u.market.pool,
              dex: DEX_NAMES[u.market.dex],
              why: u.why,
            })),
          }
        : {}),
    },
  };
}
