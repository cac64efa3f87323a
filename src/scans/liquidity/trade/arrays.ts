/**
 * Pure: which tick or bin arrays a concentrated pool's trades cross, around its current price —
 * the array holding the current tick (or active bin) and one on each side — and which of them the
 * scan read. The reads (discover.ts) ask for exactly these; the quotes (venues-cl.ts) walk the
 * contiguous run of them that was read.
 */
import type { Address } from '@solana/kit';
import {
  BINS_PER_ARRAY,
  binArrayIndex,
  findBinArray,
} from '../../../solana/decoders/meteora-dlmm-bin-array.js';
import {
  CLMM_TICKS_PER_ARRAY,
  findClmmTickArray,
  findWhirlpoolTickArray,
  tickArrayStart,
  WHIRLPOOL_TICKS_PER_ARRAY,
} from '../../../solana/decoders/tick-arrays.js';

/** Arrays read on each side of the current one. */
export const ARRAYS_EACH_SIDE = 1;

export interface ArrayRef {
  readonly address: Address;
  /** The first tick (or bin id) it holds; it holds `span` of them. */
  readonly first: number;
  readonly span: number;
}

/** Offsets -1, 0, +1 (with ARRAYS_EACH_SIDE 1), lowest first. */
const offsets = () => Array.from({ length: 2 * ARRAYS_EACH_SIDE + 1 }, (_, i) => i - ARRAYS_EACH_SIDE);

function tickArrays(
  tickCurrent: number,
  tickSpacing: number,
  perArray: number,
  find: (start: number) => Address,
): ArrayRef[] {
  if (tickSpacing <= 0) return [];
  const span = tickSpacing * perArray;
  const start = tickArrayStart(tickCurrent, tickSpacing, perArray);
  return offsets().map((k) => ({ address: find(start + k * span), first: start + k * span, span }));
}

export const whirlpoolArrays = (pool: Address, tickCurrent: number, tickSpacing: number): ArrayRef[] =>
  tickArrays(tickCurrent, tickSpacing, WHIRLPOOL_TICKS_PER_ARRAY, (start) =>
    findWhirlpoolTickArray(pool, start),
  );

export const clmmArrays = (pool: Address, tickCurrent: number, tickSpacing: number): ArrayRef[] =>
  tickArrays(tickCurrent, tickSpacing, CLMM_TICKS_PER_ARRAY, (start) => findClmmTickArray(pool, start));

export function dlmmArrays(pair: Address, activeId: number): ArrayRef[] {
  const index = binArrayIndex(activeId);
  return offsets().map((k) => ({
    address: findBinArray(pair, index + k),
    first: (index + k) * BINS_PER_ARRAY,
    span: BINS_PER_ARRAY,
  }));
}

/**
 * The run of arrays read around the middle one, as the range [first, end): an array not read, or
 * whose bytes do not parse (`parses` false), ends the run on its side. Null when the middle one is
 * not usable.
 */
export function readRun(
  arrays: readonly ArrayRef[],
  usable: (a: ArrayRef) => boolean,
): { first: number; end: number; used: ArrayRef[] } | null {
  const mid = ARRAYS_EACH_SIDE;
  const middle = arrays[mid];
  if (!middle || !usable(middle)) return null;
  let lo = mid;
  let hi = mid;
  while (lo > 0 && usable(arrays[lo - 1] as ArrayRef)) lo--;
  while (hi < arrays.length - 1 && usable(arrays[hi + 1] as ArrayRef)) hi++;
  const used = arrays.slice(lo, hi + 1);
  const last = used.at(-1) as ArrayRef;
  return { first: (used[0] as ArrayRef).first, end: last.first + last.span, used };
}
