/**
 * Who owns a concentrated pool's liquidity (RPC I/O; the share is worked out in positions-assess.ts).
 * For each concentrated pool found (the deepest MAX_POSITION_POOLS), round by round:
 *   1. one filtered getProgramAccounts on the DEX program (dataSize/discriminator + memcmp on the
 *      pool field) lists its positions; the pools themselves (current tick) are the liquidity
 *      reads' candidates, read in the same round (facts.ts passes them; alone, one getMultipleAccounts);
 *   2. Whirlpool and CLMM positions are owned through a position NFT: getTokenLargestAccounts on
 *      the NFT mints of the OWNERS_RESOLVED largest in-range positions per pool;
 *   3. one getMultipleAccounts of those token accounts names their owners.
 * DLMM positions carry their owner: one round. Pools are located from the largest holders
 * (positions-locate.ts, local work), so this starts beside the pool candidates' round; a pool seen
 * only in those reads (a Whirlpool under another config) is not read. A token with no
 * concentrated pool makes no call here.
 */
import { type Address, type Base58EncodedBytes, getBase58Decoder } from '@solana/kit';
import { decodeLbPair } from '../../solana/decoders/meteora-dlmm.js';
import {
  DLMM_POSITION_V2_DISCRIMINATOR,
  DLMM_POSITION_V2_HEAD,
  DLMM_POSITION_V2_PAIR_OFFSET,
  decodeDlmmPositionHead,
} from '../../solana/decoders/meteora-dlmm-position.js';
import { decodeWhirlpool } from '../../solana/decoders/orca-whirlpool.js';
import {
  decodeWhirlpoolPosition,
  WHIRLPOOL_POSITION_HEAD,
  WHIRLPOOL_POSITION_POOL_OFFSET,
  WHIRLPOOL_POSITION_SIZE,
} from '../../solana/decoders/orca-whirlpool-position.js';
import { decodeRaydiumClmmPool } from '../../solana/decoders/raydium-clmm.js';
import {
  CLMM_PERSONAL_POSITION_HEAD,
  CLMM_PERSONAL_POSITION_POOL_OFFSET,
  CLMM_PERSONAL_POSITION_SIZE,
  decodeClmmPersonalPosition,
} from '../../solana/decoders/raydium-clmm-position.js';
import { decodeTokenAccount } from '../../solana/decoders/token-account.js';
import { METEORA_DLMM_PROGRAM, ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_CLMM_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { RawAccount, TokenFacts } from '../token-facts/model.js';
import { TRUSTED_ISSUERS } from '../token-facts/trusted.js';
import { boundedSend } from './bounded-search.js';
import { type LocatedPool, locateConcentratedPools, type PositionDex } from './positions-locate.js';
import { OPTIONAL_SEARCH_MS, OWNERS_RESOLVED } from './thresholds.js';

export const MAX_POSITION_POOLS = 2;

export interface PositionRead {
  readonly address: Address;
  /** Whirlpool / CLMM: the position NFT's mint; DLMM: null (the owner is stored). */
  readonly nftMint: Address | null;
  /** Stored (DLMM) or resolved through the NFT; null: not resolved. */
  readonly owner: Address | null;
  /** Tick range (Whirlpool, CLMM), inclusive lower; DLMM: 0, 0 (every bin counts, the range is not read). */
  readonly lower: number;
  readonly upper: number;
  /** L (Whirlpool, CLMM) or the sum of the position's bin liquidity shares (DLMM). */
  readonly liquidity: bigint;
}

export interface PoolPositions {
  readonly dex: PositionDex;
  readonly pool: Address;
  /** null: the positions could not be listed (the RPC refused or failed). */
  readonly positions: readonly PositionRead[] | null;
  /** The pool's current tick (Whirlpool, CLMM) or active bin (DLMM); null: the pool was not read. */
  readonly current: number | null;
  readonly errors: readonly string[];
}

export interface PositionFacts {
  readonly pools: readonly PoolPositions[];
  /** Why a concentrated pool found has no listing: the mint is a trusted issuer, or the pool is past the deepest MAX_POSITION_POOLS. */
  readonly trustedIssuer?: boolean;
  readonly pastCap?: readonly Address[];
  /** Sequential round trips (they start with the liquidity reads' first) and calls made. */
  readonly rounds: number;
  readonly calls: number;
}

type Send = { abortSignal?: AbortSignal };
/** The pool accounts the liquidity reads fetched in their first round (the located pools are among its candidates). */
export type PoolAccounts = Promise<ReadonlyMap<Address, RawAccount | null>>;
const base58 = getBase58Decoder();
const bytes58 = (b: Uint8Array | readonly number[]) =>
  base58.decode(Uint8Array.from(b)) as Base58EncodedBytes;
const b64 = (data: readonly [string, string] | string[]) =>
  new Uint8Array(Buffer.from(data[0] as string, 'base64'));

const PROGRAMS: Readonly<Record<PositionDex, Address>> = {
  'orca-whirlpool': ORCA_WHIRLPOOL_PROGRAM,
  'raydium-clmm': RAYDIUM_CLMM_PROGRAM,
  'meteora-dlmm': METEORA_DLMM_PROGRAM,
};

function filtersOf(dex: PositionDex, pool: Address) {
  const at = (offset: number, value: string) => ({
    memcmp: { offset: BigInt(offset), bytes: value as Base58EncodedBytes, encoding: 'base58' as const },
  });
  switch (dex) {
    case 'orca-whirlpool':
      return [{ dataSize: BigInt(WHIRLPOOL_POSITION_SIZE) }, at(WHIRLPOOL_POSITION_POOL_OFFSET, pool)];
    case 'raydium-clmm':
      return [
        { dataSize: BigInt(CLMM_PERSONAL_POSITION_SIZE) },
        at(CLMM_PERSONAL_POSITION_POOL_OFFSET, pool),
      ];
    case 'meteora-dlmm':
      // No dataSize: positions wider than 70 bins are longer accounts of the same kind.
      return [at(0, bytes58(DLMM_POSITION_V2_DISCRIMINATOR)), at(DLMM_POSITION_V2_PAIR_OFFSET, pool)];
  }
}

/** Bytes of each position returned (a dataSlice from 0): a popular pool has thousands of them. */
const HEAD: Readonly<Record<PositionDex, number>> = {
  'orca-whirlpool': WHIRLPOOL_POSITION_HEAD,
  'raydium-clmm': CLMM_PERSONAL_POSITION_HEAD,
  'meteora-dlmm': DLMM_POSITION_V2_HEAD,
};
const FULL: Readonly<Record<'orca-whirlpool' | 'raydium-clmm', number>> = {
  'orca-whirlpool': WHIRLPOOL_POSITION_SIZE,
  'raydium-clmm': CLMM_PERSONAL_POSITION_SIZE,
};

/** A position from its head bytes; DLMM's bin range lies past them and is not needed (all bins count). */
function positionOf(dex: PositionDex, address: Address, head: Uint8Array): PositionRead | null {
  if (dex === 'meteora-dlmm') {
    const p = decodeDlmmPositionHead(head);
    if (!p.ok) return null;
    const liquidity = p.value.shares.reduce((s, x) => s + x, 0n);
    return { address, nftMint: null, owner: p.value.owner, lower: 0, upper: 0, liquidity };
  }
  // The fields read lie in the head: the rest of the layout is zero-filled to its size.
  const data = new Uint8Array(Math.max(FULL[dex], head.length));
  data.set(head);
  const p = dex === 'orca-whirlpool' ? decodeWhirlpoolPosition(data) : decodeClmmPersonalPosition(data);
  if (!p.ok) return null;
  const v = p.value;
  const nftMint = 'positionMint' in v ? v.positionMint : v.nftMint;
  return { address, nftMint, owner: null, lower: v.tickLower, upper: v.tickUpper, liquidity: v.liquidity };
}

/** The pool's current tick or active bin, if the account is that DEX's pool trading `mint`. */
function currentOf(dex: PositionDex, data: Uint8Array, mint: Address): number | null {
  const p =
    dex === 'orca-whirlpool'
      ? decodeWhirlpool(data)
      : dex === 'raydium-clmm'
        ? decodeRaydiumClmmPool(data)
        : decodeLbPair(data);
  if (!p.ok || (p.value.mintA !== mint && p.value.mintB !== mint)) return null;
  return 'activeId' in p.value ? p.value.activeId : p.value.tickCurrent;
}

/** In range (Whirlpool, CLMM; a DLMM position counts whole): its liquidity trades at the current tick. */
export function inRange(p: PositionRead, current: number): boolean {
  return p.lower <= current && current < p.upper;
}

interface Counter {
  calls: number;
}

async function listPositions(
  rpc: SolanaRpc,
  pools: readonly LocatedPool[],
  mint: Address,
  signal: AbortSignal | undefined,
  searchMs: number,
  read: PoolAccounts | undefined,
  n: Counter,
) {
  const send: Send = signal ? { abortSignal: signal } : {};
  n.calls += pools.length + (read ? 0 : 1);
  const [lists, accounts] = await Promise.all([
    Promise.all(
      pools.map((p) => {
        // Each listing is bounded on its own: a slow one leaves its owners unknown, never the scan.
        const bounded = boundedSend(signal, searchMs);
        return rpc
          .getProgramAccounts(PROGRAMS[p.dex], {
            encoding: 'base64',
            filters: filtersOf(p.dex, p.pool),
            dataSlice: { offset: 0, length: HEAD[p.dex] },
          })
          .send(bounded.send)
          .then((r) => ({ ok: true as const, r }))
          .catch((e: unknown) => ({ ok: false as const, e: `getProgramAccounts: ${bounded.why(e)}` }));
      }),
    ),
    read
      ? read.then((accounts) => pools.map((p) => accounts.get(p.pool)?.data ?? null))
      : rpc
          .getMultipleAccounts(
            pools.map((p) => p.pool),
            { encoding: 'base64' },
          )
          .send(send)
          .then((r) => r.value.map((a) => (a ? b64(a.data) : null)))
          .catch(() => pools.map(() => null)),
  ]);
  return pools.map((p, i): PoolPositions => {
    const list = lists[i];
    const data = accounts[i];
    const current = data ? currentOf(p.dex, data, mint) : null;
    if (!list?.ok)
      return { dex: p.dex, pool: p.pool, positions: null, current, errors: [list?.e ?? 'no answer'] };
    const positions = list.r
      .map((a) => positionOf(p.dex, a.pubkey, b64(a.account.data)))
      .filter((x): x is PositionRead => x !== null && x.liquidity > 0n);
    return { dex: p.dex, pool: p.pool, positions, current, errors: [] };
  });
}

/** The NFT positions whose owners are worth resolving: the largest in range per pool. */
function toResolve(pool: PoolPositions): PositionRead[] {
  // Without the pool's current tick nothing is counted (positions-assess.ts): resolve no owner.
  const current = pool.current;
  if (pool.positions === null || pool.dex === 'meteora-dlmm' || current === null) return [];
  const counted = pool.positions.filter((p) => inRange(p, current));
  return [...counted]
    .sort((a, b) => (b.liquidity > a.liquidity ? 1 : b.liquidity < a.liquidity ? -1 : 0))
    .slice(0, OWNERS_RESOLVED);
}

/**
 * NFT mint → its holder's owner, in two rounds (largest token account, then that account). Bundled
 * Whirlpool positions share their bundle's mint: each mint is looked up once.
 */
async function resolveOwners(
  rpc: SolanaRpc,
  nftMints: readonly Address[],
  { send, why }: ReturnType<typeof boundedSend>,
  n: Counter,
) {
  const mints = [...new Set(nftMints)];
  const owners = new Map<Address, Address>();
  const errors: string[] = [];
  if (mints.length === 0) return { owners, errors, rounds: 0 };
  n.calls += mints.length;
  const holders = await Promise.all(
    mints.map((m) =>
      rpc
        .getTokenLargestAccounts(m)
        .send(send)
        .then((r) => r.value.find((v) => v.amount !== '0')?.address ?? null)
        .catch((e: unknown) => {
          errors.push(`getTokenLargestAccounts ${m}: ${why(e)}`);
          return null;
        }),
    ),
  );
  const accounts = holders.filter((h): h is Address => h !== null);
  if (accounts.length === 0) return { owners, errors, rounds: 1 };
  n.calls += 1;
  const read = await rpc
    .getMultipleAccounts(accounts, { encoding: 'base64' })
    .send(send)
    .then((r) => r.value)
    .catch((e: unknown) => {
      errors.push(`getMultipleAccounts: ${why(e)}`);
      return accounts.map(() => null);
    });
  holders.forEach((h, i) => {
    const a = h === null ? null : read[accounts.indexOf(h)];
    const decoded = a ? decodeTokenAccount(b64(a.data), a.owner) : null;
    if (decoded?.ok) owners.set(mints[i] as Address, decoded.value.owner);
  });
  return { owners, errors, rounds: 2 };
}

async function readPositions(
  rpc: SolanaRpc,
  pools: readonly LocatedPool[],
  mint: Address,
  signal: AbortSignal | undefined,
  searchMs: number,
  read: PoolAccounts | undefined,
) {
  const n: Counter = { calls: 0 };
  if (pools.length === 0) return { pools: [] as PoolPositions[], rounds: 0, calls: 0 };
  const listed = (await listPositions(rpc, pools, mint, signal, searchMs, read, n)).filter(
    (p) => p.current !== null || p.positions === null || p.positions.length > 0,
  );
  const chosen = listed.flatMap(toResolve);
  // Optional like the listing: bounded, so a slow lookup leaves owners unknown, not the scan late.
  const { owners, errors, rounds } = await resolveOwners(
    rpc,
    chosen.map((p) => p.nftMint as Address),
    boundedSend(signal, searchMs),
    n,
  );
  const withOwners = listed.map((pool) => ({
    ...pool,
    positions:
      pool.positions?.map((p) =>
        p.nftMint && owners.has(p.nftMint) ? { ...p, owner: owners.get(p.nftMint) ?? null } : p,
      ) ?? null,
    errors: [...pool.errors, ...(chosen.some((c) => pool.positions?.includes(c)) ? errors : [])],
  }));
  return { pools: withOwners, rounds: 1 + rounds, calls: n.calls };
}

/** What the liquidity reads share with the positions (all optional: alone, it reads what it needs). */
export interface PositionOptions {
  /** Bound on each listing (getProgramAccounts), besides the scan's signal. */
  readonly searchMs?: number;
  /** The first liquidity round's accounts, among them the located pools (their current tick). */
  readonly poolAccounts?: PoolAccounts;
  /** Holder owners already placed as no concentrated pool (Discovery.placedOwners). */
  readonly placedOwners?: ReadonlySet<Address> | undefined;
}

/** Reads the positions of the concentrated pools located from the holders (none: no call). */
export async function gatherPositions(
  facts: TokenFacts,
  rpc: SolanaRpc,
  signal?: AbortSignal,
  options: PositionOptions = {},
): Promise<PositionFacts> {
  // A widely used token's largest holders are the market's deepest pools, with tens of thousands of
  // positions each, and no one wallet can own them: not worth the listing.
  if (TRUSTED_ISSUERS.has(facts.mint)) return { pools: [], rounds: 0, calls: 0, trustedIssuer: true };
  const pools = await locateConcentratedPools(facts, options.placedOwners);
  const read = await readPositions(
    rpc,
    pools.slice(0, MAX_POSITION_POOLS),
    facts.mint,
    signal,
    options.searchMs ?? OPTIONAL_SEARCH_MS,
    options.poolAccounts,
  );
  const pastCap = pools.slice(MAX_POSITION_POOLS).map((p) => p.pool);
  return pastCap.length > 0 ? { ...read, pastCap } : read;
}
