/**
 * Pure: a concentrated pool's positions → the share of its liquidity the largest owner controls.
 *
 * What is measured, per DEX:
 *   - Orca Whirlpool, Raydium CLMM: in-range liquidity L (positions whose tick range holds the
 *     current tick). L is depth per unit of √price, so two positions' L compare only where both
 *     trade — at the current price, where a seller meets them; out-of-range positions hold one
 *     token and none of the depth a seller uses now.
 *   - Meteora DLMM: a position's liquidity shares summed over its bins. A bin's shares are minted
 *     as the deposit's value in the quote token at that bin's (fixed) price, and a bin's value in
 *     that unit does not change with swaps, so summed shares are the position's value and
 *     compare across positions; the active bin alone would be a thin sliver of the pool.
 * Owners of NFT positions are resolved for the largest few only (positions.ts): the largest
 * owner's share is then a lower bound (it may hold smaller positions too). Positions held by a
 * program (a locker, a vault) are not a wallet that can pull them, as with LP tokens.
 */
import type { Address } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import type { FlagHit } from '../risk/model.js';
import { pct, ramp, ratio, round, short } from '../risk/numbers.js';
import type { LIQUIDITY_FLAGS } from './flags.js';
import { DEX_NAMES, type Dex } from './markets.js';
import { inRange, MAX_POSITION_POOLS, type PoolPositions, type PositionFacts } from './positions.js';
import type { POSITION_FLAGS } from './positions-flags.js';
import { POSITION_DEXES } from './positions-locate.js';
import { OWNER_CONCENTRATED } from './thresholds.js';

/** The liquidity and position flags: this assessment raises no other. */
type Hit = FlagHit<keyof typeof LIQUIDITY_FLAGS | keyof typeof POSITION_FLAGS>;

export const MAX_OWNERS_SHOWN = 10;

export interface OwnerShare {
  readonly owner: Address;
  readonly share: number;
  readonly positions: number;
  /** On the ed25519 curve: a single key. */
  readonly wallet: boolean;
}

export interface PoolOwnership {
  readonly pool: Address;
  readonly dex: string;
  readonly measure: string;
  readonly positions_total: number;
  readonly positions_counted: number;
  /** The largest MAX_OWNERS_SHOWN owners (a popular pool has thousands), and how many there are. */
  readonly owners: readonly OwnerShare[];
  readonly owners_total: number;
  /** Share of the counted liquidity whose owner was not resolved. */
  readonly unresolved_share: number;
}

function measureOf(pool: PoolPositions): string {
  return pool.dex === 'meteora-dlmm' ? 'liquidity shares over all bins' : 'in-range liquidity';
}

/** The counted positions: in range for Whirlpool / CLMM (all, DLMM), and their owners' shares. */
function ownershipOf(pool: PoolPositions): PoolOwnership | null {
  if (pool.positions === null) return null;
  if (pool.dex !== 'meteora-dlmm' && pool.current === null) return null;
  const current = pool.current ?? 0;
  const counted = pool.positions.filter((p) => pool.dex === 'meteora-dlmm' || inRange(p, current));
  const total = counted.reduce((s, p) => s + p.liquidity, 0n);
  const byOwner = new Map<Address, { liquidity: bigint; positions: number }>();
  let unresolved = 0n;
  for (const p of counted) {
    if (p.owner === null) {
      unresolved += p.liquidity;
      continue;
    }
    const o = byOwner.get(p.owner) ?? { liquidity: 0n, positions: 0 };
    byOwner.set(p.owner, { liquidity: o.liquidity + p.liquidity, positions: o.positions + 1 });
  }
  const owners = [...byOwner]
    .map(([owner, o]) => ({
      owner,
      share: round(ratio(o.liquidity, total), 4),
      positions: o.positions,
      wallet: isOnCurveAddress(owner),
    }))
    .sort((a, b) => b.share - a.share);
  return {
    pool: pool.pool,
    dex: DEX_NAMES[pool.dex],
    measure: measureOf(pool),
    positions_total: pool.positions.length,
    positions_counted: counted.length,
    owners: owners.slice(0, MAX_OWNERS_SHOWN),
    owners_total: owners.length,
    unresolved_share: round(ratio(unresolved, total), 4),
  };
}

function concentratedHit(o: PoolOwnership): Hit | null {
  const top = o.owners.find((x) => x.wallet);
  if (top === undefined || top.share < OWNER_CONCENTRATED.warn) return null;
  return {
    code: 'LIQUIDITY_OWNER_CONCENTRATED',
    strength: ramp(top.share, OWNER_CONCENTRATED.warn, OWNER_CONCENTRATED.full),
    evidence: {
      pool: o.pool,
      dex: o.dex,
      owner: top.owner,
      share: top.share,
      measure: o.measure,
      positions_counted: o.positions_counted,
      owner_positions: top.positions,
    },
    reason: `one wallet, ${short(top.owner)}, owns ${pct(top.share)} of the ${o.measure} of its ${o.dex} pool ${short(o.pool)} and can withdraw it at once`,
  };
}

function unavailableHit(unread: readonly PoolPositions[]): Hit | null {
  if (unread.length === 0) return null;
  const reasons = unread.map(
    (p) => `${DEX_NAMES[p.dex]} pool ${p.pool}: ${p.errors.join('; ') || 'the pool could not be read'}`,
  );
  return {
    code: 'LIQUIDITY_OWNERS_UNAVAILABLE',
    strength: 1,
    evidence: { reason: reasons.join('; '), pools: unread.map((p) => p.pool) },
    reason: 'who owns the liquidity of its concentrated pools could not be read',
  };
}

export interface PositionsOutcome {
  readonly hits: Hit[];
  /** Pool → what the positions show (or why they were not read), for the markets summary. */
  readonly byPool: ReadonlyMap<string, PoolOwnership | string>;
  readonly rounds: number;
  readonly calls: number;
}

/** Why a concentrated pool with no listing (none in `byPool`) has none. */
export function unlistedWhy(dex: Dex, pool: Address, facts: PositionFacts | undefined): string {
  if (facts?.trustedIssuer)
    return 'not read: a widely used token’s pools hold a whole market’s positions, which no one wallet can own';
  if (facts?.pastCap?.includes(pool))
    return `not read: positions are listed for its ${MAX_POSITION_POOLS} deepest concentrated pools only`;
  if (!POSITION_DEXES.has(dex))
    return 'not read: positions are listed (getProgramAccounts on the DEX program) only for Orca Whirlpool, Raydium CLMM and Meteora DLMM pools';
  return dex === 'orca-whirlpool'
    ? 'not read: positions are listed only for Whirlpools under Orca’s public config whose vault is among the largest holders'
    : 'not read: positions are listed only for pools whose vault is among the largest holders';
}

export function assessPositions(facts: PositionFacts | undefined): PositionsOutcome {
  const hits: Hit[] = [];
  const byPool = new Map<string, PoolOwnership | string>();
  const unread: PoolPositions[] = [];
  for (const pool of facts?.pools ?? []) {
    const o = ownershipOf(pool);
    if (o === null) {
      unread.push(pool);
      byPool.set(pool.pool, `not read: ${pool.errors.join('; ') || 'the pool could not be read'}`);
      continue;
    }
    byPool.set(pool.pool, o);
    const hit = concentratedHit(o);
    if (hit) hits.push(hit);
    // An owner lookup that failed leaves the share unknown unless a wallet is already over the line.
    else if (pool.errors.length > 0) unread.push(pool);
  }
  const unavailable = unavailableHit(unread);
  if (unavailable) hits.push(unavailable);
  return { hits, byPool, rounds: facts?.rounds ?? 0, calls: facts?.calls ?? 0 };
}
