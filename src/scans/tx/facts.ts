/**
 * Everything /verify/tx needs from RPC, in one round trip: the transaction (base64, so it is
 * decoded exactly as the chain stored it) and its status (for finality), in parallel. A finalized
 * transaction cannot change: what was read of it is kept (../fact-store.ts), and a later scan of
 * it, on any instance, reads nothing.
 */
import type { Signature } from '@solana/kit';
import type { SolanaRpc } from '../../solana/rpc.js';
import { type FactStore, factText, keepFact, keptFact } from '../fact-store.js';
import { rpcReadFailed, ScanFailedError } from '../scanner.js';

/** The fact under which a landed transaction's facts are kept, by signature. */
export const LANDED_TRANSACTION_FACT = 'landed-transaction';

export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string | null;
  readonly amount: bigint;
  readonly decimals: number;
}

export interface LandedTx {
  readonly slot: bigint;
  readonly blockTime: number | null;
  readonly wire: string;
  readonly err: unknown;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  readonly logMessages: readonly string[];
  readonly computeUnitsConsumed: bigint | null;
}

export interface TxFacts {
  readonly signature: string;
  /** null: the RPC knows no such transaction. */
  readonly tx: LandedTx | null;
  readonly confirmation: 'processed' | 'confirmed' | 'finalized' | null;
  /** The slot its facts were read at when an earlier scan kept them; absent when read now. */
  readonly keptAt?: number;
}

type RawTokenBalance = Readonly<{
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: Readonly<{ amount: string; decimals: number }>;
}>;

const tokenBalances = (list: readonly RawTokenBalance[] | null | undefined): TokenBalance[] =>
  (list ?? []).map((b) => ({
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner ?? null,
    amount: BigInt(b.uiTokenAmount.amount),
    decimals: b.uiTokenAmount.decimals,
  }));

/** The transaction's facts as an earlier scan kept them (finalized then, so still). */
async function keptTx(facts: FactStore | undefined, signature: string): Promise<TxFacts | undefined> {
  const kept = await keptFact<LandedTx>(facts, signature, LANDED_TRANSACTION_FACT);
  if (kept === undefined) return undefined;
  return { signature, confirmation: 'finalized', tx: kept.value, keptAt: kept.slot };
}

export async function gatherTxFacts(
  rpc: SolanaRpc,
  signature: string,
  abortSignal?: AbortSignal,
  facts?: FactStore,
): Promise<TxFacts> {
  const kept = await keptTx(facts, signature);
  if (kept !== undefined) return kept;
  const read = await readTxFacts(rpc, signature, abortSignal);
  if (read.tx !== null && facts !== undefined) {
    const fact = { value: factText(read.tx), slot: Number(read.tx.slot), commitment: read.confirmation };
    keepFact(facts, signature, LANDED_TRANSACTION_FACT, fact);
  }
  return read;
}

async function readTxFacts(rpc: SolanaRpc, signature: string, abortSignal?: AbortSignal): Promise<TxFacts> {
  const options = abortSignal ? { abortSignal } : {};
  const read = () =>
    Promise.all([
      rpc
        .getTransaction(signature as Signature, {
          encoding: 'base64',
          maxSupportedTransactionVersion: 0,
          commitment: 'confirmed',
        })
        .send(options),
      rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send(options),
    ]);
  let answers: Awaited<ReturnType<typeof read>>;
  try {
    answers = await read();
  } catch (e) {
    throw rpcReadFailed(e);
  }
  const [raw, statuses] = answers;
  const status = statuses.value[0];
  const confirmation = status?.confirmationStatus ?? null;
  if (raw === null) return { signature, tx: null, confirmation };
  const meta = raw.meta;
  if (meta === null) throw new ScanFailedError('the RPC returned the transaction without its status meta');
  return {
    signature,
    confirmation,
    tx: {
      slot: raw.slot,
      blockTime: raw.blockTime === null ? null : Number(raw.blockTime),
      wire: raw.transaction[0],
      err: meta.err,
      fee: meta.fee,
      preBalances: meta.preBalances,
      postBalances: meta.postBalances,
      preTokenBalances: tokenBalances(meta.preTokenBalances),
      postTokenBalances: tokenBalances(meta.postTokenBalances),
      loadedAddresses: meta.loadedAddresses ?? { writable: [], readonly: [] },
      logMessages: meta.logMessages ?? [],
      computeUnitsConsumed: meta.computeUnitsConsumed ?? null,
    },
  };
}
