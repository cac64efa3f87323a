/**
 * A transaction's content, read once: getTransaction (encoding "json", as every decoder here reads
 * it) is asked only when the fact store does not already hold the answer, and an answer whose slot
 * is finalized (its signature page said so) is kept there for every later scan, on any instance.
 * The answer is kept as it came but for its log messages, which none of its readers decode, so
 * each reader decodes it as it always has (a creator's moves, a wallet's funder, a launch's
 * trades); Kit's bigints are tagged so they come back as bigints.
 * A store that cannot be read or written is passed by: the RPC is asked, as without one.
 */
import type { Signature } from '@solana/kit';
import type { SolanaRpc } from '../../solana/rpc.js';
import { type FactStore, factText, keepFact, keptFact } from '../fact-store.js';

/** The fact under which a transaction's answer is kept, by its signature. */
export const TRANSACTION_FACT = 'transaction';

export interface TransactionRead {
  /** The getTransaction answer; null when the RPC serves no such transaction (never kept). */
  readonly tx: unknown;
  /** The slot it was read at when it came from the fact store; null when read now. */
  readonly keptAt: number | null;
}

/** What a signature page says of an entry's commitment (Kit names it confirmationStatus). */
export interface PageEntryStatus {
  readonly confirmationStatus?: string | null;
}

export const isFinalized = (entry: PageEntryStatus): boolean => entry.confirmationStatus === 'finalized';

type Send = { readonly abortSignal?: AbortSignal };

/** The answer without its log messages: about half a pump.fun transaction's size, read by no one here. */
function withoutLogs(tx: unknown): unknown {
  const meta = (tx as { meta?: unknown } | null)?.meta;
  if (meta === null || typeof meta !== 'object' || !('logMessages' in meta)) return tx;
  const { logMessages: _, ...rest } = meta as Record<string, unknown>;
  return { ...(tx as object), meta: rest };
}

/** A slot as the answer gives it (a bigint from Kit), or null when it has none. */
function slotOf(tx: unknown): number | null {
  const slot = (tx as { slot?: unknown } | null)?.slot;
  return typeof slot === 'bigint' || typeof slot === 'number' ? Number(slot) : null;
}

/**
 * The transaction `signature`, from the fact store when kept, else from the RPC (rejecting as the
 * RPC does); `finalized` is what its signature page said of its slot: only then is it kept.
 */
export async function readTransaction(
  rpc: SolanaRpc,
  facts: FactStore | undefined,
  signature: string,
  finalized: boolean,
  send: Send,
): Promise<TransactionRead> {
  const fromStore = await keptFact(facts, signature, TRANSACTION_FACT);
  if (fromStore !== undefined) return { tx: fromStore.value, keptAt: fromStore.slot };
  const tx: unknown = await rpc
    .getTransaction(signature as Signature, {
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    })
    .send(send);
  const slot = slotOf(tx);
  if (facts && slot !== null) {
    const read = {
      value: factText(withoutLogs(tx)),
      slot,
      commitment: finalized ? 'finalized' : 'confirmed',
    } as const;
    keepFact(facts, signature, TRANSACTION_FACT, read);
  }
  return { tx, keptAt: null };
}

/** How many reads the fact store served, and the slots they were read at: the evidence's line. */
export function keptSummary(reads: readonly (TransactionRead | null)[]) {
  const slots = reads.flatMap((r) => (r === null || r.keptAt === null ? [] : [r.keptAt]));
  if (slots.length === 0) return null;
  return { transactions: slots.length, read_at_slots: [Math.min(...slots), Math.max(...slots)] };
}
