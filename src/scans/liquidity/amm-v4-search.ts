/**
 * Pure: locating the Raydium AMM v4 pool behind a vault among the largest holders. Every AMM v4
 * vault is owned by one shared authority and the pool address derives from an OpenBook market, so
 * the pool is found only by a filtered getProgramAccounts on the AMM v4 program: accounts of
 * AmmInfo's size whose coin vault (or, failing that, pc vault) is the vault. The token is the coin
 * side of nearly every pool, so the coin-side search goes first, alone; the pc side is searched only
 * when it found nothing. facts.ts issues the searches; this module says which, and what they found.
 */
import type { Address, Base58EncodedBytes } from '@solana/kit';
import {
  AMM_V4_COIN_VAULT_OFFSET,
  AMM_V4_PC_VAULT_OFFSET,
  RAYDIUM_AMM_V4_SIZE,
} from '../../solana/decoders/raydium-amm-v4.js';
import type { UnlocatedVault } from './model.js';

export type VaultSide = 'coin' | 'pc';

export interface AmmV4Search {
  readonly vault: Address;
  readonly side: VaultSide;
}

/** Pools a search found (their addresses; the accounts go with the other reads), or null when it failed. */
export type SearchResults = ReadonlyMap<string, readonly Address[] | null>;

/** At most this many AMM v4 vaults are searched per scan (each is one call). */
export const MAX_AMM_V4_SEARCHES = 2;

export const searchKey = (s: AmmV4Search): string => `${s.side}:${s.vault}`;

/** The getProgramAccounts filters of a search: AmmInfo's size and the vault at its side's offset. */
export function ammV4Filters(s: AmmV4Search) {
  const offset = s.side === 'coin' ? AMM_V4_COIN_VAULT_OFFSET : AMM_V4_PC_VAULT_OFFSET;
  return [
    { dataSize: BigInt(RAYDIUM_AMM_V4_SIZE) },
    {
      memcmp: {
        offset: BigInt(offset),
        bytes: s.vault as string as Base58EncodedBytes,
        encoding: 'base58' as const,
      },
    },
  ];
}

const ammV4Vaults = (unlocated: readonly UnlocatedVault[]) =>
  unlocated
    .filter((v) => v.dex === 'raydium-amm-v4')
    .slice(0, MAX_AMM_V4_SEARCHES)
    .map((v) => v.tokenAccount);

/** The searches still to issue: each vault's coin side, then its pc side if the coin side found nothing. */
export function nextAmmV4Searches(unlocated: readonly UnlocatedVault[], done: SearchResults): AmmV4Search[] {
  const next: AmmV4Search[] = [];
  for (const vault of ammV4Vaults(unlocated)) {
    const coin = done.get(searchKey({ vault, side: 'coin' }));
    if (coin === undefined) next.push({ vault, side: 'coin' });
    else if (coin !== null && coin.length === 0 && !done.has(searchKey({ vault, side: 'pc' })))
      next.push({ vault, side: 'pc' });
  }
  return next;
}

/** Every pool the searches found. */
export function locatedAmmV4Pools(done: SearchResults | undefined): Address[] {
  return [...new Set([...(done?.values() ?? [])].flatMap((pools) => pools ?? []))];
}

/**
 * How a vault's search ended: not searched, refused (the error is among the liquidity errors),
 * empty, or answered with accounts that are no pool of this token (asked only of a vault still
 * unlocated, so what a search found did not decode as an AMM v4 pool trading the mint).
 */
export function ammV4SearchOutcome(
  vault: Address,
  done: SearchResults | undefined,
): 'not-searched' | 'failed' | 'not-found' | 'not-a-pool' {
  const coin = done?.get(searchKey({ vault, side: 'coin' }));
  const pc = done?.get(searchKey({ vault, side: 'pc' }));
  if (coin === undefined) return 'not-searched';
  if (coin === null || pc === null) return 'failed';
  // The coin side found something: the pc side is never searched, and what was found is no pool.
  if (coin.length > 0 || (pc !== undefined && pc.length > 0)) return 'not-a-pool';
  return pc === undefined ? 'not-searched' : 'not-found';
}
