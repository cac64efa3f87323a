/**
 * Everything /scan/wallet needs, in two sequential round trips:
 *   1. the account and a bounded page of its history, in parallel;
 *   2. the transactions that tell burner patterns: the first two (funding and first action)
 *      and the latest, in parallel.
 */
import type { Address, Signature } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { rpcReadFailed } from '../scanner.js';
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

export async function gatherWalletFacts(
  rpc: SolanaRpc,
  address: Address,
  now: () => number,
  abortSignal?: AbortSignal,
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
    })) ?? null;
  // Oldest two (funding, first action) and the newest: enough for the burner patterns.
  const chosen =
    entries === null
      ? []
      : [...new Set([entries.at(-1), entries.at(-2), entries[0]].filter((e) => e !== undefined))];
  const transactions = await Promise.all(
    chosen.map((e) =>
      rpc
        .getTransaction(e.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
        .send(send)
        .catch(() => null),
    ),
  );
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
    moves: transactions.flatMap((tx, i) => {
      const move = moveOf(address, chosen[i]!.signature, tx);
      return move === null ? [] : [move];
    }),
    nowSeconds: Math.floor(now() / 1000),
  };
}
