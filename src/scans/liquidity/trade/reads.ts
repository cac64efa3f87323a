/**
 * Pure: the accounts a market's trade-size quote needs beyond its pool and vaults, once its pool is
 * read — a concentrated pool's tick or bin arrays around its current price (arrays.ts), and a CLMM
 * pool's AmmConfig (its fee). They go in the same round as the pool's vaults.
 */
import type { Address } from '@solana/kit';
import { decodeLbPair } from '../../../solana/decoders/meteora-dlmm.js';
import { decodeWhirlpool } from '../../../solana/decoders/orca-whirlpool.js';
import { decodeRaydiumClmmPool } from '../../../solana/decoders/raydium-clmm.js';
import type { RawAccount } from '../../token-facts/model.js';
import type { Market } from '../markets.js';
import { clmmArrays, dlmmArrays, whirlpoolArrays } from './arrays.js';

export function tradeReads(m: Market, accounts: ReadonlyMap<Address, RawAccount | null>): Address[] {
  const pool = accounts.get(m.pool);
  if (!pool) return [];
  switch (m.dex) {
    case 'orca-whirlpool': {
      const p = decodeWhirlpool(pool.data);
      return p.ok
        ? whirlpoolArrays(m.pool, p.value.tickCurrent, p.value.tickSpacing).map((a) => a.address)
        : [];
    }
    case 'raydium-clmm': {
      const p = decodeRaydiumClmmPool(pool.data);
      if (!p.ok) return [];
      return [
        p.value.ammConfig,
        ...clmmArrays(m.pool, p.value.tickCurrent, p.value.tickSpacing).map((a) => a.address),
      ];
    }
    case 'meteora-dlmm': {
      const p = decodeLbPair(pool.data);
      return p.ok ? dlmmArrays(m.pool, p.value.activeId).map((a) => a.address) : [];
    }
    default:
      return [];
  }
}
