/**
 * When a facilitator's settle answer is ambiguous (timeout, 5xx, "pending"), the chain is
 * the judge: did the payment transaction land? A payment is identified by the sha256 of its
 * message, so it is found even when we never learned its signature.
 */
import {
  type Address,
  type Blockhash,
  getBase64Encoder,
  getTransactionDecoder,
  type Signature,
} from '@solana/kit';
import type { SolanaRpc } from '../solana/rpc.js';
import { paymentKey } from './payment-transaction.js';

export type LandedState = 'landed' | 'failed' | 'expired' | 'unknown';

export interface Landing {
  readonly state: LandedState;
  /** The payment transaction's signature, once known (asked for or found on chain). */
  readonly signature: string | null;
}

export interface SettlementLookup {
  /**
   * What became of the payment whose message hashes to `key`. `since` (ms since the epoch) is a
   * time before which it cannot have landed: the search of payTo's history stops there.
   */
  find(key: string, hint: { signature: string | null; blockhash: string; since: number }): Promise<Landing>;
}

/** Signatures asked for per page of payTo's history, and the most transactions read per search. */
const PAGE = 100;
const MAX_READ = 400;

function messageKey(base64Transaction: string): string {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64Transaction));
  return paymentKey(tx.messageBytes as unknown as Uint8Array);
}

/** A search of payTo's history: the payment found, or whether the search covered everything since. */
type Search = { readonly found: Landing } | { readonly found: null; readonly complete: boolean };

export function createSettlementLookup(rpc: SolanaRpc, payToTokenAccount: Address): SettlementLookup {
  async function bySignature(signature: string): Promise<LandedState> {
    const { value } = await rpc
      .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
      .send();
    const status = value[0];
    if (!status || status.confirmationStatus === 'processed') return 'unknown';
    return status.err === null ? 'landed' : 'failed';
  }

  /** The payment among these signatures; undefined when one of them could not be read. */
  async function inPage(key: string, signatures: readonly string[]): Promise<Landing | null | undefined> {
    const transactions = await Promise.all(
      signatures.map((signature) =>
        rpc
          .getTransaction(signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
          .send()
          .catch(() => undefined),
      ),
    );
    let unread = false;
    for (const [i, tx] of transactions.entries()) {
      if (tx === undefined || tx === null) {
        unread = true;
        continue;
      }
      if (messageKey(tx.transaction[0]) !== key) continue;
      return { state: tx.meta?.err == null ? 'landed' : 'failed', signature: signatures[i]! };
    }
    return unread ? undefined : null;
  }

  /**
   * Pages back through payTo's history to `since`. Only a search that read every transaction
   * since then may conclude the payment is not there.
   */
  async function byMessage(key: string, since: number): Promise<Search> {
    let before: Signature | undefined;
    let complete = true;
    for (let read = 0; read < MAX_READ; read += PAGE) {
      const page = await rpc
        .getSignaturesForAddress(payToTokenAccount, { limit: PAGE, ...(before ? { before } : {}) })
        .send();
      const recent = page.filter((r) => r.blockTime === null || Number(r.blockTime) * 1000 >= since);
      const found = await inPage(
        key,
        recent.map((r) => r.signature),
      );
      if (found) return { found };
      if (found === undefined) complete = false;
      if (page.length < PAGE || recent.length < page.length) return { found: null, complete };
      before = page.at(-1)!.signature;
    }
    return { found: null, complete: false };
  }

  return {
    async find(key, hint) {
      // Asked first: if the blockhash had already expired, nothing can land after this point,
      // so a complete search that follows and finds nothing is final.
      const expired = !(await rpc.isBlockhashValid(hint.blockhash as Blockhash).send()).value;
      if (hint.signature !== null) {
        const state = await bySignature(hint.signature);
        if (state !== 'unknown') return { state, signature: hint.signature };
      }
      const search = await byMessage(key, hint.since);
      if (search.found) return search.found;
      const final = expired && search.complete;
      return { state: final ? 'expired' : 'unknown', signature: hint.signature };
    },
  };
}
