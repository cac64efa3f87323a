/**
 * Pure: a swap through concentrated liquidity (Raydium CLMM, Orca Whirlpool, and Meteora DAMM v2's
 * single price range), walking the initialized ticks read around the current price. Within a step
 * the liquidity L is constant: with √P in Q64.64 (s), token A in moves √P down to
 *   s' = L·s / (L + Δa·s)            and pays out Δb = L·(s − s'),
 * token B in moves it up to
 *   s' = s + Δb / L                  and pays out Δa = L·(s' − s) / (s·s').
 * Crossing a tick upwards adds its liquidity_net, downwards takes it off. Reaching the end of the
 * range read (the last tick array read, or the pool's own price bounds) ends the walk: the leg is
 * partial and says so. The fee is taken from the input first. Bigint throughout.
 */
import type { InitializedTick } from '../../../solana/decoders/tick-arrays.js';
import { afterFee, type Fee, filled, type Leg, partial } from './model.js';

const Q64 = 2n ** 64n;
/** The program's tick bounds (both CLMM and Whirlpool). */
export const MIN_TICK = -443_636;
export const MAX_TICK = 443_636;
/** Steps a walk may take: each is one initialized tick, so this bounds the work on any bytes. */
const MAX_STEPS = 2_000;

/** √(1.0001^tick) in Q64.64. Doubles keep 15 digits: ample for an impact read to 0.5 %. */
export function sqrtPriceAtTick(tick: number): bigint {
  // A tick the program would never hold (pool bytes are untrusted) is taken at the nearest bound.
  const t = Math.min(MAX_TICK, Math.max(MIN_TICK, Number.isFinite(tick) ? tick : 0));
  return BigInt(Math.floor(Math.exp((t * Math.log(1.0001)) / 2) * 2 ** 64));
}

export interface ConcentratedState {
  readonly sqrtPriceX64: bigint;
  readonly liquidity: bigint;
  /** Initialized ticks inside the range read, any order. */
  readonly ticks: readonly InitializedTick[];
  /** The range whose ticks were read: √P bounds of the walk, Q64.64. */
  readonly lowerSqrtX64: bigint;
  readonly upperSqrtX64: bigint;
  readonly fee: Fee;
}

interface Boundary {
  readonly sqrt: bigint;
  readonly net: bigint | null;
}

/** The boundaries a walk meets, in order: initialized ticks, then the end of the range read. */
function boundaries(state: ConcentratedState, aToB: boolean): Boundary[] {
  const s = state.sqrtPriceX64;
  const ticks = state.ticks
    .map((t) => ({ sqrt: sqrtPriceAtTick(t.index), net: t.liquidityNet }))
    .filter((b) =>
      aToB ? b.sqrt <= s && b.sqrt > state.lowerSqrtX64 : b.sqrt > s && b.sqrt < state.upperSqrtX64,
    )
    .sort((x, y) => (aToB ? (y.sqrt > x.sqrt ? 1 : -1) : x.sqrt > y.sqrt ? 1 : -1));
  return [...ticks, { sqrt: aToB ? state.lowerSqrtX64 : state.upperSqrtX64, net: null }];
}

/** What a step from s towards t takes in at most, and pays out when it gets there. */
function fullStep(L: bigint, s: bigint, t: bigint, aToB: boolean): { maxIn: bigint; out: bigint } {
  if (L === 0n || s === t) return { maxIn: 0n, out: 0n };
  return aToB
    ? { maxIn: (L * (s - t) * Q64) / (s * t), out: (L * (s - t)) / Q64 }
    : { maxIn: (L * (t - s)) / Q64, out: (L * Q64 * (t - s)) / (s * t) };
}

/** A step that ends inside (s, t): the input runs out first. */
function partStep(L: bigint, s: bigint, amount: bigint, aToB: boolean): bigint {
  if (aToB) {
    const next = (L * Q64 * s) / (L * Q64 + amount * s);
    return (L * (s - next)) / Q64;
  }
  const next = s + (amount * Q64) / L;
  return (L * Q64 * (next - s)) / (s * next);
}

/** Token A in when `aToB`, else token B: what comes out, or how far the range read went. */
export function concentratedSwap(state: ConcentratedState, aToB: boolean, amountIn: bigint): Leg {
  if (state.sqrtPriceX64 <= 0n) return partial(0n, 0n, 'the pool states no price');
  let rest = afterFee(amountIn, state.fee);
  const net = rest;
  let s = state.sqrtPriceX64;
  let L = state.liquidity;
  let out = 0n;
  const steps = boundaries(state, aToB).slice(0, MAX_STEPS);
  for (const b of steps) {
    const step = fullStep(L, s, b.sqrt, aToB);
    if (rest < step.maxIn) return filled(out + partStep(L, s, rest, aToB));
    rest -= step.maxIn;
    out += step.out;
    if (rest === 0n) return filled(out);
    s = b.sqrt;
    if (b.net === null) break;
    L = aToB ? L - b.net : L + b.net;
    if (L < 0n)
      return partial(amountIn - rest, out, 'the ticks read leave negative liquidity: bytes no pool holds');
  }
  const used = net === 0n ? 0n : amountIn - (amountIn * rest) / net;
  return partial(used, out, 'the trade runs past the ticks read around the current price');
}
