/**
 * The liquidity facts: one extra round trip after the token facts in the common case. Pool
 * candidates, and the vaults and LP mint of pools already known to exist (derived PDAs among the
 * largest holders), are read together; only a pool first found in that round (its vaults, LP mint)
 * or an LP that is not burned (its largest holders, then their owners) takes more rounds, at most
 * MAX_LIQUIDITY_ROUNDS. Everything is read by address, except the pool behind a Raydium AMM v4
 * vault among the largest holders: one filtered getProgramAccounts on the AMM v4 program (hundreds
 * of thousands of accounts: a provider may refuse the scan, or take seconds over it) in the first
 * of these rounds, beside the other reads; a pool it finds has its quote vault, LP mint and LP
 * largest holders read in the next round. A refused search, or one not answered within
 * OPTIONAL_SEARCH_MS, leaves the vault unlocated and its error among `errors` (LIQUIDITY_UNAVAILABLE).
 */
import type { Address, Base64EncodedDataResponse } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import { RAYDIUM_AMM_V4_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { LargestAccount, RawAccount, TokenFacts } from '../token-facts/model.js';
import { viewOf } from '../token-facts/view.js';
import { type AmmV4Search, ammV4Filters, searchKey } from './amm-v4-search.js';
import { boundedSend } from './bounded-search.js';
import { type Discovery, discover, nextReads, type Reads } from './discover.js';
import { gatherPositions, type PositionFacts } from './positions.js';
import { OPTIONAL_SEARCH_MS } from './thresholds.js';

export const MAX_LIQUIDITY_ROUNDS = 4;
const ACCOUNTS_PER_CALL = 100;

export interface LiquidityFacts {
  readonly discovery: Discovery;
  readonly reads: Reads;
  /** Round trips the liquidity reads took. */
  readonly rounds: number;
  /** Reads that failed (the RPC refused or timed out): what they would have shown is unknown. */
  readonly errors: readonly string[];
  /** Reads still wanted when the round budget ran out. */
  readonly incomplete: boolean;
  /** Concentrated pools' positions (positions.ts), read beside these rounds. */
  readonly positions?: PositionFacts;
}

type Fetched = { owner: Address; lamports: bigint; data: Base64EncodedDataResponse } | null;

/**
 * The accounts, 100 per call, all calls at once. A call that fails records nothing for its
 * accounts (unread is unknown, not absent), and the others' answers are kept; the first failure
 * is returned as the round's error.
 */
async function readAccounts(rpc: SolanaRpc, addresses: Address[], send: { abortSignal?: AbortSignal }) {
  const chunks: Address[][] = [];
  for (let i = 0; i < addresses.length; i += ACCOUNTS_PER_CALL)
    chunks.push(addresses.slice(i, i + ACCOUNTS_PER_CALL));
  const answers = await Promise.allSettled(
    chunks.map((c) => rpc.getMultipleAccounts(c, { encoding: 'base64' }).send(send)),
  );
  const read: [Address, RawAccount | null][] = [];
  let error: string | null = null;
  answers.forEach((answer, k) => {
    if (answer.status === 'rejected') {
      error ??= `getMultipleAccounts: ${errorMessage(answer.reason)}`;
      return;
    }
    // Keyed by the addresses asked for: a value missing from a short answer stays unread.
    const values = answer.value.value as (Fetched | undefined)[];
    chunks[k]!.forEach((address, i) => {
      const a = values[i];
      if (a !== undefined) read.push([address, a === null ? null : rawOf(address, a)]);
    });
  });
  return { read, error };
}

async function readLargest(rpc: SolanaRpc, mint: Address, send: { abortSignal?: AbortSignal }) {
  const r = await rpc.getTokenLargestAccounts(mint).send(send);
  return r.value.map((v): LargestAccount => ({ address: v.address, amount: BigInt(v.amount) }));
}

const rawOf = (address: Address, a: NonNullable<Fetched>): RawAccount => ({
  address,
  owner: a.owner,
  lamports: a.lamports,
  data: new Uint8Array(Buffer.from(a.data[0], 'base64')),
});

/** One AMM v4 pool search (bounded by `ms`): the pools whose vault at the search's side is the vault. */
async function searchAmmV4(rpc: SolanaRpc, search: AmmV4Search, signal: AbortSignal | undefined, ms: number) {
  const { send, why } = boundedSend(signal, ms);
  const found = await rpc
    .getProgramAccounts(RAYDIUM_AMM_V4_PROGRAM, { encoding: 'base64', filters: ammV4Filters(search) })
    .send(send)
    .catch((e: unknown) => {
      throw new Error(why(e));
    });
  return found.map((p) => rawOf(p.pubkey, p.account));
}

type Want = ReturnType<typeof nextReads>;

interface Round {
  readonly read: [Address, RawAccount | null][];
  readonly lists: (readonly LargestAccount[] | null)[];
  readonly found: (RawAccount[] | null)[];
  /** A failed account read: later rounds would build on what it did not show. */
  readonly readError: string | null;
  /** Refused searches: what they would show is unknown, and the rounds go on. */
  readonly softErrors: string[];
  /** LP mints whose largest holders could not be listed, with why. */
  readonly largestErrors: ReadonlyMap<Address, string>;
}

/** One round trip: the accounts, the LP mints' largest holders and the AMM v4 searches, side by side. */
async function readRound(
  rpc: SolanaRpc,
  want: Want,
  signal: AbortSignal | undefined,
  searchMs: number,
): Promise<Round> {
  const send = signal ? { abortSignal: signal } : {};
  const softErrors: string[] = [];
  const largestErrors = new Map<Address, string>();
  const [{ read, error: readError }, lists, found] = await Promise.all([
    want.accounts.length === 0
      ? Promise.resolve({ read: [], error: null })
      : readAccounts(rpc, want.accounts, send),
    Promise.all(
      want.largestOf.map((mint) =>
        readLargest(rpc, mint, send).catch((e: unknown) => {
          largestErrors.set(mint, `getTokenLargestAccounts (LP mint ${mint}): ${errorMessage(e)}`);
          return null;
        }),
      ),
    ),
    Promise.all(
      want.searches.map((search) =>
        searchAmmV4(rpc, search, signal, searchMs).catch((e: unknown) => {
          softErrors.push(
            `getProgramAccounts (Raydium AMM v4 pool of vault ${search.vault}): ${errorMessage(e)}`,
          );
          return null;
        }),
      ),
    ),
  ]);
  return { read, lists, found, readError, softErrors, largestErrors };
}

const wanted = (w: Want) => w.accounts.length > 0 || w.largestOf.length > 0 || w.searches.length > 0;

/** The facts of an address that is no mint: no markets, and nothing read for them. */
function noMarkets(mint: Address): LiquidityFacts {
  const discovery = { mint, candidates: [], speculative: [], speculativeLargest: [], unlocated: [] };
  const reads = { accounts: new Map(), largest: new Map() };
  return { discovery, reads, rounds: 0, errors: [], incomplete: false };
}

/** Most pools are found through the holders' vaults: without the holders, "no pool" is unknown. */
function holderGaps(facts: TokenFacts): string[] {
  if (facts.largest === null)
    return [
      `the largest holders could not be read (${facts.largestError ?? 'no answer'}), so pools found through their vaults are unknown`,
    ];
  if (facts.largest.length > 0 && facts.holderAccounts.every((a) => a === null))
    return [
      'the largest holders’ token accounts could not be read, so pools found through their vaults are unknown',
    ];
  return [];
}

/**
 * Reads the token's pools; `(facts, rpc, signal)` so it can sit in a Promise.all with other
 * third-round work. A caller that starts other reads in the same round can pass the discovery
 * (`discover(facts)`, local work only) so every call of the round leaves at once. `searchMs` bounds
 * each optional program-wide search (OPTIONAL_SEARCH_MS; tests pass less).
 */
export async function gatherLiquidity(
  facts: TokenFacts,
  rpc: SolanaRpc,
  signal?: AbortSignal,
  discovered?: Discovery,
  searchMs = OPTIONAL_SEARCH_MS,
): Promise<LiquidityFacts> {
  const accounts = new Map<Address, RawAccount | null>();
  const largest = new Map<Address, readonly LargestAccount[] | null>();
  const searches = new Map<string, readonly Address[] | null>();
  const errors: string[] = [];
  const view = viewOf(facts);
  // No mint, no markets: an address that is not a token costs no extra round.
  if (view.mintAccount === null || view.decoded.mint === null) return noMarkets(view.mint);
  const discovery = discovered ?? (await discover(view));
  errors.push(...holderGaps(view));
  // The holders' token accounts are already read: a pool's token vault among them costs nothing.
  for (const account of facts.holderAccounts) if (account) accounts.set(account.address, account);
  // Started now, beside the first round, whose candidates include the pools it lists (their current
  // tick is read there, not again); a failure leaves the owners unknown, never the scan.
  let firstRoundRead: (read: ReadonlyMap<Address, RawAccount | null>) => void = () => {};
  const firstRound = new Promise<ReadonlyMap<Address, RawAccount | null>>((r) => {
    firstRoundRead = r;
  });
  const positions = gatherPositions(view, rpc, signal, {
    searchMs,
    poolAccounts: firstRound,
    placedOwners: discovery.placedOwners,
  }).catch(() => null);
  let rounds = 0;
  let want = nextReads(discovery, { accounts, largest, searches });
  while (wanted(want) && rounds < MAX_LIQUIDITY_ROUNDS) {
    rounds++;
    const round = await readRound(rpc, want, signal, searchMs);
    for (const [address, account] of round.read) accounts.set(address, account);
    firstRoundRead(accounts);
    want.largestOf.forEach((mint, i) => {
      largest.set(mint, round.lists[i] ?? null);
    });
    want.searches.forEach((search, i) => {
      const pools = round.found[i] ?? null;
      for (const pool of pools ?? []) accounts.set(pool.address, pool);
      searches.set(searchKey(search), pools?.map((p) => p.address) ?? null);
    });
    // A refused search only leaves its vault unlocated; a failed read stops the rounds.
    errors.push(...round.softErrors);
    // An LP mint asked for with its pool's first read may not exist (no pool there): only a mint
    // that exists, or was not read, leaves its holders unknown.
    for (const [mint, error] of round.largestErrors) if (accounts.get(mint) !== null) errors.push(error);
    if (round.readError) {
      errors.push(round.readError);
      break;
    }
    want = nextReads(discovery, { accounts, largest, searches });
  }
  const read = {
    discovery,
    reads: { accounts, largest, searches },
    rounds,
    errors,
    // Out of rounds with reads still wanted (a failed read stopped them early: its error says so).
    incomplete: rounds >= MAX_LIQUIDITY_ROUNDS && wanted(want),
  };
  firstRoundRead(accounts); // no round at all: the pools are none of the candidates read
  const owners = await positions;
  return owners ? { ...read, positions: owners } : read;
}
