/**
 * Which accounts can be the token's pools, from what the token facts already hold, and what to read
 * next given what has been read (pure, so the RPC loop in facts.ts stays small):
 *   - the owners of the largest holders' token accounts that are off the ed25519 curve: PumpSwap,
 *     Raydium CLMM, Orca Whirlpool and Meteora DLMM vaults are owned by their pool;
 *   - PDAs: the canonical PumpSwap pool (pump.fun's migration), the Raydium CPMM pools of the
 *     mint against wSOL and USDC for each standard fee config (a CPMM vault is owned by a shared
 *     authority, so only derivation finds its pool), and the Meteora DAMM v1 and v2 pools of the
 *     mint against wSOL and USDC at the addresses Meteora's own tools derive (deriveMeteoraPools).
 * Raydium AMM v4 vaults, and DAMM v1/v2 vaults of a pool at none of those addresses, have shared
 * owners and pool addresses that cannot be derived from the mint: they are reported as markets whose
 * pool was not located. An AMM v4 vault's pool is searched for with one filtered getProgramAccounts
 * (amm-v4-search.ts); found, it is read like any other pool.
 * A pump.fun bonding curve holding the token is its market while the curve trades (pumpfun-curve).
 */
import type { Address } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import {
  DAMM_V1_DBC_CONFIGS,
  DAMM_V1_FEE_TIERS_BPS,
  findDammV1ConfigPool,
  findDammV1CustomizablePool,
  findDammV1PermissionlessPool,
} from '../../solana/decoders/meteora-damm-v1.js';
import {
  DAMM_V2_DBC_CONFIGS,
  findDammV2ConfigPool,
  findDammV2CustomizablePool,
  findDammV2TokenVault,
} from '../../solana/decoders/meteora-damm-v2.js';
import { findDynamicVaultAddress, findDynamicVaultLpMint } from '../../solana/decoders/meteora-vault.js';
import { decodeMint } from '../../solana/decoders/mint.js';
import { findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import { findCanonicalPumpPoolAddress, findPumpSwapLpMint } from '../../solana/decoders/pumpswap-pool.js';
import { decodeRaydiumAmmV4 } from '../../solana/decoders/raydium-amm-v4.js';
import {
  findCpmmConfigAddress,
  findCpmmLpMintAddress,
  findCpmmPoolAddress,
  findCpmmVaultAddress,
} from '../../solana/decoders/raydium-cpmm.js';
import { findAssociatedTokenAddress } from '../../solana/program-address.js';
import {
  INCINERATOR,
  METEORA_DAMM_V2_POOL_AUTHORITY,
  PUMPSWAP_GLOBAL_CONFIG,
  RAYDIUM_CPMM_AUTHORITY,
  TOKEN_PROGRAM,
  USDC_MINT,
  WSOL_MINT,
} from '../../solana/programs.js';
import { ratio } from '../risk/numbers.js';
import type { HeldBy, Holder, LargestAccount, RawAccount, TokenFacts } from '../token-facts/model.js';
import { viewOf } from '../token-facts/view.js';
import {
  type AmmV4Search,
  locatedAmmV4Pools,
  nextAmmV4Searches,
  type SearchResults,
} from './amm-v4-search.js';
import { lockerOwnersToRead } from './lockers.js';
import { curveMarketOf, type Dex, type Market, marketOf, SHARED_VAULT_AUTHORITIES } from './markets.js';
import type { UnlocatedVault } from './model.js';
import { dynamicReserveReads } from './reserves.js';
import { tradeReads } from './trade/reads.js';

/** Quote mints whose vault balance is reported as depth. */
export const QUOTES: ReadonlyMap<Address, { symbol: string; decimals: number }> = new Map<
  Address,
  { symbol: string; decimals: number }
>([
  [WSOL_MINT, { symbol: 'SOL', decimals: 9 }],
  [USDC_MINT, { symbol: 'USDC', decimals: 6 }],
]);
/** Raydium CPMM fee configs tried (index 0–3: 0.25 %, 1 %, 2 %, 4 %). */
export const CPMM_CONFIG_INDEXES = [0, 1, 2, 3] as const;
/** LP holders are read only when more than this share of the LP is not burned. */
export const LP_HOLDERS_WHEN_UNBURNED_OVER = 0.01;

export interface Discovery {
  readonly mint: Address;
  /** Pool candidates: off-curve owners of large holders, and derived pool PDAs. */
  readonly candidates: readonly Address[];
  /** Accounts worth reading with the candidates (vaults and LP mints of pools already known to exist). */
  readonly speculative: readonly Address[];
  /** LP mints whose largest holders are worth reading with the candidates. */
  readonly speculativeLargest: readonly Address[];
  readonly unlocated: readonly UnlocatedVault[];
  /** The mint's pump.fun bonding curve, when it holds some of the largest holders' tokens (`vault`). */
  readonly curve?: { readonly address: Address; readonly vault: Address } | null;
  /** Meteora dynamic vault → its LP mint, for the mint's and the quotes' vaults (DAMM v1 reserves). */
  readonly vaultLpMints?: ReadonlyMap<Address, Address>;
  /**
   * Owners of holders' accounts already placed without a concentrated pool: the mint's bonding
   * curve, its canonical PumpSwap pool, shared vault authorities (positions-locate.ts skips them).
   */
  readonly placedOwners?: ReadonlySet<Address>;
}

export interface Reads {
  readonly accounts: ReadonlyMap<Address, RawAccount | null>;
  readonly largest: ReadonlyMap<Address, readonly LargestAccount[] | null>;
  /** Raydium AMM v4 pool searches (getProgramAccounts) by vault and side; their pools are in `accounts`. */
  readonly searches?: SearchResults;
}

const unique = <T>(xs: readonly T[]) => [...new Set(xs)];

/** Pool addresses that depend on the mint alone: derived while the token facts are read. */
export interface DerivedPools {
  readonly canonical: Address;
  readonly canonicalQuote: Address;
  readonly canonicalLp: Address;
  /** Raydium CPMM pools of the mint (against each quote, under each fee config). */
  readonly cpmmPools: readonly PairPool[];
  /** The same with their vaults and LP mint: derived only when a CPMM vault is among the holders. */
  readonly cpmm: readonly { pool: Address; baseVault: Address; quoteVault: Address; lpMint: Address }[];
  readonly curve: Address;
  readonly meteora: MeteoraPools;
}

// --- Meteora DAMM v1 / v2: pools at derivable addresses, read in the candidates' round -------------

/** A pool address derived from the mint and a quote mint. */
export interface PairPool {
  readonly pool: Address;
  readonly quote: Address;
}

export interface MeteoraPools {
  /** DAMM v2 customizable and DBC-config pools, DAMM v1 permissionless, customizable and DBC-config pools. */
  readonly pools: readonly Address[];
  /** The DAMM v2 ones, with their quote. */
  readonly dammV2Pools: readonly PairPool[];
  /**
   * The DAMM v2 ones with their vaults (a base vault among the largest holders proves its pool):
   * derived only when a DAMM v2 vault is among the holders.
   */
  readonly dammV2: readonly { pool: Address; baseVault: Address; quoteVault: Address }[];
  /** Dynamic vault → LP mint for the mint's vault and the quotes' (DAMM v1 keeps its reserves there). */
  readonly vaultLpMints: ReadonlyMap<Address, Address>;
  /**
   * The mint's own dynamic vault: owner of the token account that holds every DAMM v1 pool's tokens
   * (null for SOL and USDC, whose vaults serve every pool quoted in them and lenders too).
   */
  readonly ownVault: Address | null;
}

async function vaultWithLpMint(mint: Address): Promise<[Address, Address]> {
  const vault = await findDynamicVaultAddress(mint);
  return [vault, await findDynamicVaultLpMint(vault)];
}

// The quotes' vaults are the same for every mint.
const quoteVaults = Promise.all([...QUOTES.keys()].map(vaultWithLpMint));

async function dammV2Vaults(mint: Address, { pool, quote }: PairPool) {
  const [baseVault, quoteVault] = await Promise.all([
    findDammV2TokenVault(mint, pool),
    findDammV2TokenVault(quote, pool),
  ]);
  return { pool, baseVault, quoteVault };
}

/** The DAMM v2 pools Meteora's SDKs would give the pair (mint, quote). */
function dammV2PairPools(mint: Address, quote: Address): Promise<PairPool>[] {
  return [
    findDammV2CustomizablePool(mint, quote),
    ...DAMM_V2_DBC_CONFIGS.map((config) => findDammV2ConfigPool(config, mint, quote)),
  ].map(async (pool) => ({ pool: await pool, quote }));
}

/** The DAMM v1 pool addresses Meteora's SDKs would give the pair (mint, quote). */
function dammV1PairPools(mint: Address, quote: Address): Promise<Address>[] {
  return [
    findDammV1PermissionlessPool(mint, quote),
    ...DAMM_V1_FEE_TIERS_BPS.map((bps) => findDammV1PermissionlessPool(mint, quote, bps)),
    findDammV1CustomizablePool(mint, quote),
    ...DAMM_V1_DBC_CONFIGS.map((config) => findDammV1ConfigPool(mint, quote, config)),
  ];
}

/**
 * Lets the event loop turn. PDA derivation is synchronous hashing (solana/program-address.ts): the
 * fifty-odd pools a mint may have are derived in steps of a few milliseconds, begun once the reads
 * sent this tick have left, so neither they nor other requests wait behind them.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function deriveMeteoraPools(mint: Address): Promise<MeteoraPools> {
  const quoteMints = [...QUOTES.keys()];
  const dammV2Pools = await Promise.all(quoteMints.flatMap((quote) => dammV2PairPools(mint, quote)));
  await nextTurn();
  const [dammV1, own, quotes] = await Promise.all([
    Promise.all(quoteMints.flatMap((quote) => dammV1PairPools(mint, quote))),
    vaultWithLpMint(mint),
    quoteVaults,
  ]);
  return {
    pools: [...dammV2Pools.map((p) => p.pool), ...dammV1],
    dammV2Pools,
    dammV2: [],
    vaultLpMints: new Map([own, ...quotes]),
    ownVault: QUOTES.has(mint) ? null : own[0],
  };
}

/**
 * The DEX whose pools share the vault owner `owner`: a DEX's shared authority, or the mint's own
 * dynamic vault (DAMM v1 pools at no derived address are seen only through it).
 */
function sharedVaultDex(owner: Address, meteora: MeteoraPools): Dex | undefined {
  return SHARED_VAULT_AUTHORITIES.get(owner) ?? (owner === meteora.ownVault ? 'meteora-damm-v1' : undefined);
}

// ----------------------------------------------------------------------------------------------------

// Fee configs are the same for every mint.
const cpmmConfigs = CPMM_CONFIG_INDEXES.map((index) => findCpmmConfigAddress(index));

async function cpmmPool(config: Address, mint: Address, quote: Address): Promise<PairPool> {
  return { pool: await findCpmmPoolAddress(config, mint, quote), quote };
}

async function cpmmVaults(mint: Address, { pool, quote }: PairPool) {
  const [baseVault, quoteVault, lpMint] = await Promise.all([
    findCpmmVaultAddress(pool, mint),
    findCpmmVaultAddress(pool, quote),
    findCpmmLpMintAddress(pool),
  ]);
  return { pool, baseVault, quoteVault, lpMint };
}

export async function derivePools(mint: Address): Promise<DerivedPools> {
  await nextTurn();
  const configs = await Promise.all(cpmmConfigs);
  const canonical = await findCanonicalPumpPoolAddress(mint);
  const [[canonicalQuote], canonicalLp, cpmmPools, curve] = await Promise.all([
    findAssociatedTokenAddress({ owner: canonical, mint: WSOL_MINT, tokenProgram: TOKEN_PROGRAM }),
    findPumpSwapLpMint(canonical),
    Promise.all(
      configs.flatMap((config) => [...QUOTES.keys()].map((quote) => cpmmPool(config, mint, quote))),
    ),
    findBondingCurveAddress(mint),
  ]);
  await nextTurn();
  const meteora = await deriveMeteoraPools(mint);
  return { canonical, canonicalQuote, canonicalLp, cpmmPools, cpmm: [], curve, meteora };
}

/**
 * The derived pools' vaults, where the holders call for them: a CPMM or DAMM v2 vault is owned by
 * its DEX's shared authority, so only a holder owned by that authority makes the vault PDAs worth
 * deriving (about 60 PDAs, a quarter of a scan's CPU, saved for every other token).
 */
export async function withHeldVaults(
  mint: Address,
  holders: readonly Holder[],
  derived: DerivedPools,
): Promise<DerivedPools> {
  const owners = new Set(holders.map((h) => h.owner));
  const [cpmm, dammV2] = await Promise.all([
    owners.has(RAYDIUM_CPMM_AUTHORITY) && derived.cpmm.length === 0
      ? Promise.all(derived.cpmmPools.map((p) => cpmmVaults(mint, p)))
      : derived.cpmm,
    owners.has(METEORA_DAMM_V2_POOL_AUTHORITY) && derived.meteora.dammV2.length === 0
      ? Promise.all(derived.meteora.dammV2Pools.map((p) => dammV2Vaults(mint, p)))
      : derived.meteora.dammV2,
  ]);
  return { ...derived, cpmm, meteora: { ...derived.meteora, dammV2 } };
}

/** withHeldVaults as soon as both the pool PDAs and round 2's holders are in: inside round 2. */
export async function poolsOnceHeld(
  mint: Address,
  derived: Promise<DerivedPools>,
  held: Promise<HeldBy>,
): Promise<DerivedPools> {
  const [pools, { holders }] = await Promise.all([derived, held]);
  return withHeldVaults(mint, holders, pools);
}

/** The pool candidates of a token, from its facts and its derived pools (local work only). */
export function discoverWith(facts: TokenFacts, derived: DerivedPools): Discovery {
  const holders = viewOf(facts).decoded.holders;
  const unlocated: UnlocatedVault[] = [];
  const owners: Address[] = [];
  for (const h of holders) {
    if (h.owner === null || h.owner === INCINERATOR || isOnCurveAddress(h.owner)) continue;
    const dex = sharedVaultDex(h.owner, derived.meteora);
    if (dex) unlocated.push({ dex, tokenAccount: h.tokenAccount, owner: h.owner, amount: h.amount });
    else owners.push(h.owner);
  }
  const heldBy = new Set(holders.map((h) => h.tokenAccount));
  // A derived vault among the largest holders proves the pool exists: read all of it now.
  const cpmmHeld = derived.cpmm.filter((c) => heldBy.has(c.baseVault));
  const dammV2Held = derived.meteora.dammV2.filter((p) => heldBy.has(p.baseVault));
  const canonicalHeld = owners.includes(derived.canonical);
  // The curve's token account is among the holders already: a curve market costs no read.
  const curveVault = holders.find((h) => h.owner === derived.curve)?.tokenAccount;
  return {
    mint: facts.mint,
    candidates: unique([
      ...owners,
      derived.canonical,
      ...derived.cpmmPools.map((c) => c.pool),
      ...derived.meteora.pools,
    ]),
    speculative: unique([
      // PumpSwap's fees, for the trade sizes: one more address in the pools' first read.
      PUMPSWAP_GLOBAL_CONFIG,
      derived.canonicalQuote,
      derived.canonicalLp,
      ...cpmmHeld.flatMap((c) => [c.quoteVault, c.lpMint]),
      ...dammV2Held.map((p) => p.quoteVault),
    ]),
    speculativeLargest: unique([
      ...(canonicalHeld ? [derived.canonicalLp] : []),
      ...cpmmHeld.map((c) => c.lpMint),
    ]),
    unlocated,
    curve: curveVault ? { address: derived.curve, vault: curveVault } : null,
    vaultLpMints: derived.meteora.vaultLpMints,
    placedOwners: new Set([derived.curve, derived.canonical, ...unlocated.map((v) => v.owner)]),
  };
}

export async function discover(facts: TokenFacts): Promise<Discovery> {
  const view = viewOf(facts);
  return discoverWith(
    view,
    await withHeldVaults(view.mint, view.decoded.holders, await derivePools(view.mint)),
  );
}

/** Markets among the candidates read so far. */
export function marketsRead(d: Discovery, reads: Reads): Market[] {
  const markets: Market[] = [];
  for (const candidate of [...d.candidates, ...locatedAmmV4Pools(reads.searches)]) {
    const account = reads.accounts.get(candidate);
    const market = account ? marketOf(account, d.mint) : null;
    if (market && !markets.some((m) => m.pool === market.pool)) markets.push(market);
  }
  const curve = curveMarket(d, reads);
  if (curve) markets.push(curve);
  return markets;
}

/** The bonding curve as a market, while it trades (read with the candidates: it owns a holder's account). */
function curveMarket(d: Discovery, reads: Reads): Market | null {
  const account = d.curve ? reads.accounts.get(d.curve.address) : null;
  return d.curve && account ? curveMarketOf(account, d.curve.vault) : null;
}

/** Share of the LP not burned: the LP mint's supply over what the pool counts as issued. */
export function lpLiveShare(market: Market, lpMint: RawAccount | null | undefined): number | null {
  if (!lpMint) return null;
  const decoded = decodeMint(lpMint.data, lpMint.owner);
  if (!decoded.ok) return null;
  const supply = decoded.value.supply;
  const issued = market.poolLpSupply !== null && market.poolLpSupply > supply ? market.poolLpSupply : supply;
  return ratio(supply, issued);
}

/**
 * The LP mints of AMM v4 pools a search found: their largest holders are read with the LP mint, as a
 * derived pool's are, since the search took a round of its own.
 */
function locatedLpMints(reads: Reads): Address[] {
  return locatedAmmV4Pools(reads.searches).flatMap((pool) => {
    const account = reads.accounts.get(pool);
    const decoded = account ? decodeRaydiumAmmV4(account.data) : null;
    return decoded?.ok ? [decoded.value.lpMint] : [];
  });
}

/** What to read next, given what has been read: nothing left means the facts are complete. */
export function nextReads(
  d: Discovery,
  reads: Reads,
): { accounts: Address[]; largestOf: Address[]; searches: AmmV4Search[] } {
  const accounts: Address[] = [...d.candidates, ...d.speculative];
  const largestOf: Address[] = [...d.speculativeLargest, ...locatedLpMints(reads)];
  for (const m of marketsRead(d, reads)) {
    accounts.push(m.baseVault, m.quoteVault);
    accounts.push(...dynamicReserveReads(m, reads.accounts, d.vaultLpMints ?? new Map()));
    accounts.push(...tradeReads(m, reads.accounts));
    // A DAMM v1 pool is only ever found in the pool round: its LP holders come with its LP mint.
    if (m.dynamicVaults && m.lpMint) largestOf.push(m.lpMint);
    if (m.lpMint === null || !reads.accounts.has(m.lpMint)) {
      if (m.lpMint) accounts.push(m.lpMint);
      continue;
    }
    const live = lpLiveShare(m, reads.accounts.get(m.lpMint));
    if (live === null || live <= LP_HOLDERS_WHEN_UNBURNED_OVER) continue;
    largestOf.push(m.lpMint);
    const holders = reads.largest.get(m.lpMint) ?? [];
    for (const holder of holders) accounts.push(holder.address);
    // A holder owned by a program address: its owner account says whether that is a known locker.
    accounts.push(
      ...lockerOwnersToRead(holders.map((h) => ({ ...h, account: reads.accounts.get(h.address) }))),
    );
  }
  return {
    accounts: unique(accounts).filter((a) => !reads.accounts.has(a)),
    largestOf: unique(largestOf).filter((a) => !reads.largest.has(a)),
    searches: nextAmmV4Searches(d.unlocated, reads.searches ?? new Map()),
  };
}
