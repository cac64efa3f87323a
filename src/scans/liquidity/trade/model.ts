/**
 * The shapes the trade-size math shares: a pool ready to quote (a venue) and one leg of a trade
 * through it. Every amount is in raw units; a leg that the liquidity read cannot fill says how far
 * it got, never a guess of the rest.
 */
import type { Market } from '../markets.js';

/** A fee as a fraction: numerator over denominator (bigint, so a pool's own units stay exact). */
export interface Fee {
  readonly num: bigint;
  readonly den: bigint;
}

export type Leg =
  | { readonly filled: true; readonly out: bigint }
  /** Ran past the liquidity read: `used` of the input went in for `out` before it ended. */
  | { readonly filled: false; readonly used: bigint; readonly out: bigint; readonly why: string };

export interface Venue {
  readonly market: Market;
  /** Raw quote units per raw base unit at the pool's current price. */
  readonly spot: number;
  /** The pool's fee on each swap's input, as a fraction. */
  readonly fee: number;
  /** Quote in, base out. */
  readonly buy: (quoteIn: bigint) => Leg;
  /** Base in, quote out. */
  readonly sell: (baseIn: bigint) => Leg;
}

/** A pool the scan read but cannot quote, and why. */
export interface Unquotable {
  readonly market: Market;
  readonly why: string;
}

export const filled = (out: bigint): Leg => ({ filled: true, out });
export const partial = (used: bigint, out: bigint, why: string): Leg => ({ filled: false, used, out, why });

/** amount × (1 − fee), rounded down: what a swap's input is worth to the curve once the fee is taken. */
export function afterFee(amount: bigint, fee: Fee): bigint {
  if (fee.den <= 0n || fee.num < 0n || fee.num >= fee.den) return 0n;
  return (amount * (fee.den - fee.num)) / fee.den;
}

export const feeFraction = (fee: Fee): number => (fee.den > 0n ? Number(fee.num) / Number(fee.den) : 1);

/** A fee the pool's bytes state that no program would charge (a zero denominator, 100 % or more). */
export const feeUnusable = (fee: Fee): boolean => fee.den <= 0n || fee.num < 0n || fee.num >= fee.den;
