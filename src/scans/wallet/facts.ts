/**
 * Everything /scan/wallet needs, in two sequential round trips:
 *   1. the account and a bounded page of its history, in parallel;
 *   2. the transactions that tell burner patterns: the first two (funding and first action)
 *      and the latest, in parallel.
 * What a finalized transaction did to the wallet's SOL cannot change: it is kept (../fact-store.ts),
 * and a later scan of the wallet reads again only the transactions not kept (its funding and first
 * action once; a new latest one).
 */
import type { Address, Signature } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { type FactStore, factText, keepFact, keptFact } from '../fact-store.js';
import { rpcReadFailed } from '../scanner.js';
import { keptSummary, type TransactionRead } from '../token-facts/kept-transactions.js';
import { decodeTransaction } from '../tx/decode.js';

/** History read per scan; a wallet with more is flagged as truncated. */
export const HISTORY_LIMIT = 100;

export interface WalletAccount {
  readonly owner: Address;
  readonly executable: boolean;
  readonly lamports: bigint;
  readonly dataLength: number;
}

export interface SignatureEntry {
  readonly signature: string;
  readonly slot: bigint;
  readonly blockTime: number | null;
  readonly failed: boolean;
  /** Its slot was finalized when the page was read. */
  readonly finalized?: boolean;
}

/** What one transaction did to this wallet's SOL. */
export interface BalanceMove {
  readonly signature: string;
  readonly blockTime: number | null;
  readonly signer: boolean;
  readonly pre: bigint;
  readonly post: bigint;
}

export interface WalletFacts {
  readonly address: Address;
  readonly account: WalletAccount | null;
  /** Newest first; null when the history could not be read. */
  readonly history: readonly SignatureEntry[] | null;
  readonly historyError: string | null;
  readonly moves: readonly BalanceMove[];
  readonly nowSeconds: number;
  /** Moves the fact store served (kept by an earlier scan), and the slots they were read at. */
  readonly kept?: ReturnType<typeof keptSummary>;
}

type RecordedTx = {
  readonly blockTime: bigint | number | null;
  readonly transaction: readonly [string, string] | unknown;
  readonly meta: {
    readonly preBalances: readonly bigint[];
    readonly postBalances: readonly bigint[];
    readonly loadedAddresses?: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  } | null;
} | null;

function moveOf(address: Address, signature: string, tx: RecordedTx): BalanceMove | null {
  if (tx === null || tx.meta === null) return null;
  const wire = (tx.transaction as readonly [string, string])[0];
  const decoded = decodeTransaction(wire, tx.meta.loadedAddresses ?? { writable: [], readonly: [] });
  const index = decoded.accountKeys.indexOf(address);
  if (index < 0) return null;
  return {
    signature,
    blockTime: tx.blockTime === null ? null : Number(tx.blockTime),
    signer: index < decoded.signers.length,
    pre: tx.meta.preBalances[index] ?? 0n,
    post: tx.meta.postBalances[index] ?? 0n,
  };
}

/** What one transaction did to the wallet, kept per wallet and signature. */
const moveFact = (signature: string) => `wallet-move:${signature}`;

/** The move of one chosen transaction: kept, or read (and kept when its slot is finalized). */
async function moveIn(
  rpc: SolanaRpc,
  facts: FactStore | undefined,
  address: Address,
  entry: SignatureEntry,
  send: { abortSignal?: AbortSignal },
): Promise<{ move: BalanceMove | null; read: TransactionRead }> {
  const kept = await keptFact<BalanceMove | null>(facts, address, moveFact(entry.signature));
  if (kept !== undefined) return { move: kept.value, read: { tx: null, keptAt: kept.slot } };
  const tx = await rpc
    .getTransaction(entry.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
    .send(send)
    .catch(() => null);
  const move = moveOf(address, entry.signature, tx);
  if (tx !== null && facts !== undefined) {
    const commitment = entry.finalized ? 'finalized' : 'confirmed';
    const fact = { value: factText(move), slot: Number(entry.slot), commitment } as const;
    keepFact(facts, address, moveFact(entry.signature), fact);
  }
  return { move, read: { tx, keptAt: null } };
}

export async function gatherWalletFacts(
  rpc: SolanaRpc,
  address: Address,
  now: () => number,
  abortSignal?: AbortSignal,
  facts?: FactStore,
): Promise<WalletFacts> {
  const send = abortSignal ? { abortSignal } : {};
  const [info, history] = await Promise.all([
    rpc
      .getAccountInfo(address, { encoding: 'base64', dataSlice: { offset: 0, length: 0 } })
      .send(send)
      .catch((e: unknown) => {
        throw rpcReadFailed(e);
      }),
    rpc
      .getSignaturesForAddress(address, { limit: HISTORY_LIMIT })
      .send(send)
      .then((list) => ({ list, error: null }))
      .catch((e: unknown) => ({ list: null, error: errorMessage(e) })),
  ]);
  const entries =
    history.list?.map((s) => ({
      signature: s.signature as string,
      slot: s.slot,
      blockTime: s.blockTime === null ? null : Number(s.blockTime),
      failed: s.err !== null,
      finalized: s.confirmationStatus === 'finalized',
    })) ?? null;
  // Oldest two (funding, first action) and the newest: enough for the burner patterns.
  const chosen =
    entries === null
      ? []
      : [...new Set([entries.at(-1), entries.at(-2), entries[0]].filter((e) => e !== undefined))];
  const moves = await Promise.all(chosen.map((e) => moveIn(rpc, facts, address, e!, send)));
  const value = info.value;
  return {
    address,
    account:
      value === null
        ? null
        : {
            owner: value.owner,
            executable: value.executable,
            lamports: value.lamports,
            dataLength: Number(value.space),
          },
    history: entries,
    historyError: history.error,
    moves: moves.flatMap(({ move }) => (move === null ? [] : [move])),
    nowSeconds: Math.floor(now() / 1000),
    kept: keptSummary(moves.map((m) => m.read)),
  };
}
