/**
 * How Meteora's DAMM v1 and v2 put a pair of mints in a pool's seeds: the greater by bytes first
 * (`get_first_key` / `max_key`), then the smaller — so either order of mints gives the same pool.
 * (Orca's Whirlpool seeds take the same two the other way round: positions-locate.ts.)
 */
import type { Address } from '@solana/kit';
import { addressBytes } from '../address-bytes.js';

export function maxMinBytes(a: Address, b: Address): [Uint8Array, Uint8Array] {
  const x = new Uint8Array(addressBytes(a));
  const y = new Uint8Array(addressBytes(b));
  for (let i = 0; i < 32; i++) if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0) ? [x, y] : [y, x];
  return [x, y];
}
