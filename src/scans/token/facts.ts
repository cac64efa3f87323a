/**
 * Everything the token checks need, in two sequential round trips:
 *   1. the mint and its Metaplex metadata (PDA derived locally) in one getMultipleAccounts,
 *      the largest holders, the current epoch and the mint's newest signatures (its age), all in
 *      parallel;
 *   2. the largest holders' token accounts (owner, frozen, delegate), with the accounts the
 *      caller asks for given the mint (`alsoRead`: a transfer hook's validation account), in
 *      parallel with whatever the caller adds (/scan/token reads the governing accounts behind
 *      the mint's authorities there, governors.ts; both scans send a young token's first
 *      transactions there and let the third round leave without them, ./launch/facts.ts;
 *      pump.fun, the creator's launches; the transfer simulation waits there for the holders,
 *      then simulates: a third round).
 */
import type { Address, Base64EncodedDataResponse } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import { findMetadataAddress } from '../../solana/decoders/metaplex-metadata.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { rpcReadFailed } from '../scanner.js';
import type { HolderRead, LargestAccount, MintHistory, RawAccount, TokenFacts } from './model.js';

/** Signatures that name the mint read per scan: a younger mint's whole history fits in one page. */
export const MINT_HISTORY_LIMIT = 1000;

type Fetched = { owner: Address; lamports: bigint; data: Base64EncodedDataResponse } | null;
const toRaw = (address: Address, a: Fetched): RawAccount | null =>
  a === null
    ? null
    : {
        address,
        owner: a.owner,
        lamports: a.lamports,
        data: new Uint8Array(Buffer.from(a.data[0], 'base64')),
      };

/** What round 2 work gets: round 1's reads, and the holders' accounts round 2 is reading. */
export interface Round1 {
  readonly extraAccounts: readonly (RawAccount | null)[];
  readonly mintAccount: RawAccount | null;
  readonly metadataAccount: RawAccount | null;
  readonly history: MintHistory | null;
  readonly holders: Promise<HolderRead>;
}

export interface TokenFactsOptions<T> {
  /** Accounts to read in the first round trip, together with the mint. */
  readonly extraAccounts?: readonly Address[];
  /** Accounts to read with the holders' in round 2, given the mint (e.g. a hook's validation account). */
  readonly alsoRead?: (mintAccount: RawAccount | null) => Promise<readonly Address[]>;
  /** Work for the second round trip, given what the first found. */
  readonly round2?: (first: Round1) => Promise<T>;
  readonly abortSignal?: AbortSignal;
}

type Send = { abortSignal?: AbortSignal };
/** The largest holders, or why they could not be read (e.g. too many holders for the RPC). */
type LargestRead = { list: LargestAccount[] | null; error: string | null };

/** The mint's newest signatures as its history (one page; full means older than it reaches). */
function historyOf(
  page: readonly { signature: string; slot: bigint; err: unknown; blockTime: bigint | null }[],
): MintHistory {
  const last = page.at(-1);
  return {
    count: page.length,
    oldest:
      last === undefined
        ? null
        : { signature: last.signature, blockTime: last.blockTime === null ? null : Number(last.blockTime) },
    truncated: page.length >= MINT_HISTORY_LIMIT,
    entries: page.map((e) => ({ signature: e.signature, slot: Number(e.slot), failed: e.err !== null })),
  };
}

/** Round 1: the accounts (mint first), the largest holders, the epoch and the history, in parallel. */
async function readRound1(rpc: SolanaRpc, mint: Address, addresses: readonly Address[], send: Send) {
  const [accounts, largest, epoch, history] = await Promise.all([
    rpc
      .getMultipleAccounts(addresses as Address[], { encoding: 'base64' })
      .send(send)
      .catch((e: unknown) => {
        throw rpcReadFailed(e);
      }),
    rpc
      .getTokenLargestAccounts(mint)
      .send(send)
      .then(
        (r): LargestRead => ({
          list: r.value.map((v) => ({ address: v.address, amount: BigInt(v.amount) })),
          error: null,
        }),
      )
      .catch((e: unknown): LargestRead => ({ list: null, error: errorMessage(e) })),
    rpc
      .getEpochInfo()
      .send(send)
      .then((e) => e.epoch)
      .catch(() => null),
    rpc
      .getSignaturesForAddress(mint, { limit: MINT_HISTORY_LIMIT })
      .send(send)
      .then(historyOf)
      .catch(() => null),
  ]);
  const raw = addresses.map((address, i) => toRaw(address, (accounts.value[i] ?? null) as Fetched));
  return { raw, largest, epoch, history };
}

/** Round 2's read: the holders' token accounts and what `also` adds, in one call; a failure leaves them unknown. */
function readHolders(
  rpc: SolanaRpc,
  holders: readonly LargestAccount[],
  also: readonly Address[],
  send: Send,
): Promise<HolderRead> {
  const addresses = [...holders.map((h) => h.address), ...also];
  if (addresses.length === 0) return Promise.resolve({ largest: holders, accounts: [], also: [] });
  return rpc
    .getMultipleAccounts(addresses, { encoding: 'base64' })
    .send(send)
    .then((r) => {
      const read = addresses.map((a, i) => toRaw(a, (r.value[i] ?? null) as Fetched));
      return { largest: holders, accounts: read.slice(0, holders.length), also: read.slice(holders.length) };
    })
    .catch(() => ({ largest: holders, accounts: holders.map(() => null), also: null }));
}

export async function gatherTokenFacts<T = undefined>(
  rpc: SolanaRpc,
  mint: Address,
  now: () => number,
  options: TokenFactsOptions<T> = {},
): Promise<{ facts: TokenFacts; extra: T | undefined }> {
  const send = options.abortSignal ? { abortSignal: options.abortSignal } : {};
  const metadataAddress = await findMetadataAddress(mint);
  const addresses = [mint, metadataAddress, ...(options.extraAccounts ?? [])];
  const { raw, largest, epoch, history } = await readRound1(rpc, mint, addresses, send);
  const extraAccounts = raw.slice(2);
  const holders = largest.list ?? [];
  const also = options.alsoRead ? await options.alsoRead(raw[0] ?? null) : [];
  const holderRead = readHolders(rpc, holders, also, send);
  const [holderAccounts, extra] = await Promise.all([
    holderRead.then((r) => r.accounts),
    options.round2
      ? options.round2({
          extraAccounts,
          mintAccount: raw[0] ?? null,
          metadataAccount: raw[1] ?? null,
          history,
          holders: holderRead,
        })
      : Promise.resolve(undefined),
  ]);
  return {
    facts: {
      mint,
      mintAccount: raw[0] ?? null,
      metadataAddress,
      metadataAccount: raw[1] ?? null,
      extraAccounts,
      epoch,
      largest: largest.list,
      largestError: largest.error,
      holderAccounts,
      history,
      nowSeconds: Math.floor(now() / 1000),
    },
    extra,
  };
}
