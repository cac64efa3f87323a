/**
 * Concentrated-liquidity pools located from the largest holders alone (local work, no RPC), so
 * their positions can be asked for in the same round as the pool candidates:
 *   - Raydium CLMM: the vault is the PDA ["pool_vault", pool, mint] of the CLMM program;
 *   - Meteora DLMM: the reserve is the PDA [lb_pair, mint] of the DLMM program;
 *   - Orca Whirlpool: vaults are plain keypairs, but the pool is the PDA ["whirlpool", config,
 *     mint A, mint B, tick spacing] of Orca's public config, tried against SOL and USDC for each
 *     standard tick spacing.
 * A pool seen only in the liquidity reads (a Whirlpool under another config) is not located, so its
 * positions are not listed (position_owners says why).
 */
import { type Address, getAddressEncoder } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import { findLbPairReserve } from '../../solana/decoders/meteora-dlmm.js';
import { maxMinBytes } from '../../solana/decoders/meteora-pair-seeds.js';
import { findProgramDerivedAddress } from '../../solana/program-address.js';
import {
  INCINERATOR,
  ORCA_WHIRLPOOL_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  USDC_MINT,
  WSOL_MINT,
} from '../../solana/programs.js';
import type { TokenFacts } from '../token-facts/model.js';
import { viewOf } from '../token-facts/view.js';
import type { Dex } from './markets.js';

export type PositionDex = Extract<Dex, 'orca-whirlpool' | 'raydium-clmm' | 'meteora-dlmm'>;
export const POSITION_DEXES: ReadonlySet<Dex> = new Set<Dex>([
  'orca-whirlpool',
  'raydium-clmm',
  'meteora-dlmm',
]);

/** Orca's public WhirlpoolsConfig: every pool listed by Orca's app is created under it. */
export const ORCA_WHIRLPOOLS_CONFIG = '2LecshUwdy9xi7meFgHtFJQNSKk4KdTrcpvaB56dP2NQ' as Address;
/** Tick spacings of its fee tiers (32896: splash pools). */
const WHIRLPOOL_TICK_SPACINGS = [1, 2, 4, 8, 16, 32, 64, 96, 128, 256, 512, 32896] as const;

export interface LocatedPool {
  readonly dex: PositionDex;
  readonly pool: Address;
  /** The token held in its vault: pools are ranked by it. */
  readonly amount: bigint;
}

const encoder = getAddressEncoder();
const u16 = (n: number) => new Uint8Array([n & 0xff, n >> 8]);

/** The Whirlpool PDAs of `mint` against SOL and USDC under Orca's public config. */
export async function whirlpoolAddresses(mint: Address): Promise<Address[]> {
  const seeds = [WSOL_MINT, USDC_MINT].flatMap((quote) => {
    // Orca orders the mints the other way from Meteora: the smaller by bytes first.
    const [max, min] = maxMinBytes(mint, quote);
    return WHIRLPOOL_TICK_SPACINGS.map((spacing) => [
      'whirlpool',
      encoder.encode(ORCA_WHIRLPOOLS_CONFIG),
      min,
      max,
      u16(spacing),
    ]);
  });
  const pdas = await Promise.all(
    seeds.map((s) => findProgramDerivedAddress({ programAddress: ORCA_WHIRLPOOL_PROGRAM, seeds: s })),
  );
  return pdas.map(([pda]) => pda);
}

async function clmmVault(pool: Address, mint: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: RAYDIUM_CLMM_PROGRAM,
    seeds: ['pool_vault', encoder.encode(pool), encoder.encode(mint)],
  });
  return pda;
}

/**
 * Concentrated pools whose vault is among the largest holders, deepest first. Holders whose owner
 * is already `placed` (a bonding curve, a derived pool, a shared vault authority) cost no PDA work:
 * a pump.fun coin whose only program-owned holder is its curve derives nothing here.
 */
export async function locateConcentratedPools(
  facts: TokenFacts,
  placed: ReadonlySet<Address> = new Set(),
): Promise<LocatedPool[]> {
  const holders = viewOf(facts).decoded.holders.filter(
    (h) => h.owner !== null && h.owner !== INCINERATOR && !placed.has(h.owner) && !isOnCurveAddress(h.owner),
  );
  if (holders.length === 0) return [];
  const whirlpools = new Set(await whirlpoolAddresses(facts.mint));
  const found = await Promise.all(
    holders.map(async (h): Promise<LocatedPool | null> => {
      const pool = h.owner as Address;
      if (whirlpools.has(pool)) return { dex: 'orca-whirlpool', pool, amount: h.amount };
      const [clmm, dlmm] = await Promise.all([
        clmmVault(pool, facts.mint),
        findLbPairReserve(pool, facts.mint),
      ]);
      if (clmm === h.tokenAccount) return { dex: 'raydium-clmm', pool, amount: h.amount };
      if (dlmm === h.tokenAccount) return { dex: 'meteora-dlmm', pool, amount: h.amount };
      return null;
    }),
  );
  const pools = found.filter((p): p is LocatedPool => p !== null);
  return pools
    .filter((p, i) => pools.findIndex((q) => q.pool === p.pool) === i)
    .sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
}
