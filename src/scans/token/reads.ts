/**
 * The token pipeline's own reads, one call each (schedule.ts says when each is sent):
 *   round 1, `readRound1`: the mint and its Metaplex metadata (with any account a scan adds) in one
 *     getMultipleAccounts, the largest holders, the current epoch and the mint's newest signatures
 *     (its age), all in parallel;
 *   round 2, `readHolders`: the largest holders' token accounts (owner, frozen, delegate), with
 *     the accounts asked for given the mint (a transfer hook's validation account), in one call.
 */
import type { Address, Base64EncodedDataResponse } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { rpcReadFailed } from '../scanner.js';
import type { HolderRead, LargestAccount, MintHistory, RawAccount } from '../token-facts/model.js';

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

type Send = { abortSignal?: AbortSignal };
/** The largest holders, or why they could not be read (e.g. too many holders for the RPC). */
export type LargestRead = { list: LargestAccount[] | null; error: string | null };

/** The mint's newest signatures as its history (one page; full means older than it reaches). */
function historyOf(
  page: readonly {
    signature: string;
    slot: bigint;
    err: unknown;
    blockTime: bigint | null;
    confirmationStatus?: string | null;
  }[],
): MintHistory {
  const last = page.at(-1);
  return {
    count: page.length,
    oldest:
      last === undefined
        ? null
        : { signature: last.signature, blockTime: last.blockTime === null ? null : Number(last.blockTime) },
    truncated: page.length >= MINT_HISTORY_LIMIT,
    entries: page.map((e) => ({
      signature: e.signature,
      slot: Number(e.slot),
      failed: e.err !== null,
      finalized: e.confirmationStatus === 'finalized',
    })),
  };
}

/** Round 1: the accounts (mint first), the largest holders, the epoch and the history, in parallel. */
export async function readRound1(rpc: SolanaRpc, mint: Address, addresses: readonly Address[], send: Send) {
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
export function readHolders(
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
