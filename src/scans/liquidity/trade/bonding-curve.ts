/**
 * Pure: a trade against pump.fun's bonding curve, priced from its virtual reserves (a constant
 * product of virtual SOL and virtual tokens) and bounded by its real ones: a buy gets at most the
 * real tokens left (then the curve completes), a sale at most the real SOL in it. The fee is added
 * to a buy's SOL and taken from a sale's, as the program charges it.
 */
import { filled, type Leg, partial } from './model.js';

export interface Curve {
  readonly virtualTokens: bigint;
  readonly virtualQuote: bigint;
  readonly realTokens: bigint;
  readonly realQuote: bigint;
  /** The fee, basis points of the SOL side. */
  readonly feeBps: bigint;
}

const BPS = 10_000n;

/** SOL in (fee included) → tokens out. */
export function curveBuy(c: Curve, quoteIn: bigint): Leg {
  if (c.virtualTokens <= 0n || c.virtualQuote <= 0n) return partial(0n, 0n, 'the curve has no reserves');
  const net = (quoteIn * BPS) / (BPS + c.feeBps);
  const out = (c.virtualTokens * net) / (c.virtualQuote + net);
  if (out <= c.realTokens) return filled(out);
  if (c.realTokens <= 0n || c.realTokens >= c.virtualTokens)
    return partial(0n, 0n, 'the curve has no tokens left');
  const cost = (c.virtualQuote * c.realTokens) / (c.virtualTokens - c.realTokens);
  return partial(
    (cost * (BPS + c.feeBps)) / BPS,
    c.realTokens,
    'the curve completes: it has fewer tokens left',
  );
}

/** Tokens in → SOL out (fee taken). */
export function curveSell(c: Curve, baseIn: bigint): Leg {
  if (c.virtualTokens <= 0n || c.virtualQuote <= 0n) return partial(0n, 0n, 'the curve has no reserves');
  const gross = (c.virtualQuote * baseIn) / (c.virtualTokens + baseIn);
  const net = (gross * (BPS - c.feeBps)) / BPS;
  if (gross <= c.realQuote) return filled(net);
  if (c.realQuote <= 0n || c.realQuote >= c.virtualQuote) return partial(0n, 0n, 'the curve holds no SOL');
  const used = (c.realQuote * c.virtualTokens) / (c.virtualQuote - c.realQuote);
  return partial(
    used,
    (c.realQuote * (BPS - c.feeBps)) / BPS,
    'the curve holds less SOL than the sale takes',
  );
}
