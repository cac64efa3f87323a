/**
 * Pure: each venue quoted at each dollar size. A buy spends the size in the pool's quote; a sale
 * sells the tokens the size buys at the pool's current price; the round trip buys with the size,
 * then sells what arrived — each leg against the pool as read (the sale does not ride back down
 * the buy: others may trade between). Token-2022 transfer fees are taken on the tokens bought
 * (on arrival) and on the tokens sold (on their way into the pool). Impact is the shortfall against
 * the pool's current price, fees included. A leg that runs past the liquidity read gives no impact,
 * only a lower bound (the part that filled is the cheapest part).
 */
import type { TransferFee } from '../../../solana/decoders/mint.js';
import { round } from '../../risk/numbers.js';
import { DEX_NAMES } from '../markets.js';
import type { Leg, Venue } from './model.js';

export interface SizeQuote {
  readonly usd: number;
  readonly pool: string | null;
  readonly dex: string | null;
  readonly quote_amount: number | null;
  readonly buy_price_impact: number | null;
  readonly sell_price_impact: number | null;
  readonly round_trip_loss: number | null;
  readonly exceeds_read_liquidity: boolean | null;
  readonly buy_price_impact_at_least?: number;
  readonly sell_price_impact_at_least?: number;
  readonly why?: string;
}

/** The Token-2022 fee on moving `amount` (rounded up, capped at the maximum), 0 without one. */
export function transferFeeOn(amount: bigint, fee: TransferFee | null): bigint {
  if (fee === null || fee.basisPoints <= 0 || amount <= 0n) return 0n;
  const cut = (amount * BigInt(fee.basisPoints) + 9_999n) / 10_000n;
  return cut > fee.maximumFee ? fee.maximumFee : cut;
}

/** A non-negative amount as a bigint; an amount no double can hold (pool bytes are untrusted) is 0. */
export const wholeUnits = (x: number): bigint => (Number.isFinite(x) && x > 0 ? BigInt(Math.floor(x)) : 0n);

const share = (x: number) => round(Math.min(1, Math.max(0, x)), 4);
/** 1 − got / worth, or null when nothing was worth anything. */
const shortfall = (got: number, worth: number) =>
  worth > 0 && Number.isFinite(worth) ? share(1 - got / worth) : null;

/** A leg's impact against `worth` (in the output token) of a filled leg, or its lower bound. */
function legImpact(leg: Leg, out: bigint, worthOfUsed: number) {
  return leg.filled
    ? { impact: shortfall(Number(out), worthOfUsed), atLeast: null }
    : { impact: null, atLeast: leg.used > 0n ? shortfall(Number(out), worthOfUsed) : null };
}

export function quoteAt(
  v: Venue,
  usd: number,
  quoteIn: bigint,
  quoteDecimals: number,
  fee: TransferFee | null,
): SizeQuote {
  const buy = v.buy(quoteIn);
  const bought = buy.out - transferFeeOn(buy.out, fee);
  const b = legImpact(buy, bought, Number(buy.filled ? quoteIn : buy.used) / v.spot);
  const tokens = wholeUnits(Number(quoteIn) / v.spot);
  const sale = v.sell(tokens - transferFeeOn(tokens, fee));
  const s = legImpact(sale, sale.out, sale.filled ? Number(quoteIn) : Number(sale.used) * v.spot);
  let roundTrip: number | null = null;
  if (buy.filled) {
    const back = v.sell(bought - transferFeeOn(bought, fee));
    roundTrip = back.filled ? shortfall(Number(back.out), Number(quoteIn)) : null;
  }
  const exceeded = !buy.filled || !sale.filled;
  const why = [buy, sale].flatMap((l) => (l.filled ? [] : [l.why]))[0];
  return {
    usd,
    pool: v.market.pool,
    dex: DEX_NAMES[v.market.dex],
    quote_amount: round(Number(quoteIn) / 10 ** quoteDecimals, 6),
    buy_price_impact: b.impact,
    sell_price_impact: s.impact,
    round_trip_loss: roundTrip,
    exceeds_read_liquidity: exceeded,
    ...(b.atLeast !== null ? { buy_price_impact_at_least: b.atLeast } : {}),
    ...(s.atLeast !== null ? { sell_price_impact_at_least: s.atLeast } : {}),
    ...(why ? { why } : {}),
  };
}

/** The worse of the two legs' impacts, a lower bound standing in for a leg that ran past the read. */
export const worstImpact = (q: SizeQuote): number | null => {
  const legs = [
    q.buy_price_impact ?? q.buy_price_impact_at_least,
    q.sell_price_impact ?? q.sell_price_impact_at_least,
  ];
  const known = legs.filter((x): x is number => x !== undefined && x !== null);
  return known.length === 0 ? null : Math.max(...known);
};

/** Which venue an agent would use at this size: the smallest round-trip loss, else the smallest impact. */
export function bestOf(quotes: readonly SizeQuote[]): SizeQuote | null {
  const rank = (q: SizeQuote) => q.round_trip_loss ?? 1 + (worstImpact(q) ?? 1);
  return [...quotes].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}
