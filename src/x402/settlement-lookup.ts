/**
 * When a facilitator's settle answer is ambiguous (timeout, 5xx, "pending"), the chain is
 * the judge: did the payment transaction land? A payment is identified by the sha256 of its
 * message, so it is found even when we never learned its signature.
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  type Blockhash,
  getBase64Encoder,
  getTransactionDecoder,
  type Signature,
} from '@solana/kit';
import type { SolanaRpc } from '../solana/rpc.js';

export type LandedState = 'landed' | 'failed' | 'expired' | 'unknown';

export interface Landing {
  readonly state: LandedState;
  /** The payment transaction's signature, once known (asked for or found on chain). */
  readonly signature: string | null;
}

export interface SettlementLookup {
  /** What became of the payment whose message hashes to `key`. */
  find(key: string, hint: { signature: string | null; blockhash: string }): Promise<Landing>;
}

/** How many recent transactions of payTo's token account are searched for the payment. */
const SEARCH_DEPTH = 40;

function messageKey(base64Transaction: string): string {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64Transaction));
  return createHash('sha256')
    .update(tx.messageBytes as unknown as Uint8Array)
    .digest('hex');
}

export function createSettlementLookup(rpc: SolanaRpc, payToTokenAccount: Address): SettlementLookup {
  async function bySignature(signature: string): Promise<LandedState> {
    const { value } = await rpc
      .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
      .send();
    const status = value[0];
    if (!status || status.confirmationStatus === 'processed') return 'unknown';
    return status.err === null ? 'landed' : 'failed';
  }

  async function byMessage(key: string): Promise<Landing> {
    const recent = await rpc.getSignaturesForAddress(payToTokenAccount, { limit: SEARCH_DEPTH }).send();
    const transactions = await Promise.all(
      recent.map((r) =>
        rpc
          .getTransaction(r.signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
          .send()
          .catch(() => null),
      ),
    );
    for (const [i, tx] of transactions.entries()) {
      if (tx === null || messageKey(tx.transaction[0]) !== key) continue;
      return { state: tx.meta?.err == null ? 'landed' : 'failed', signature: recent[i]!.signature };
    }
    return { state: 'unknown', signature: null };
  }

  return {
    async find(key, hint) {
      // Asked first: if the blockhash had already expired, nothing can land after this point,
      // so a search that follows and finds nothing is final.
      const expired = !(await rpc.isBlockhashValid(hint.blockhash as Blockhash).send()).value;
      if (hint.signature !== null) {
        const state = await bySignature(hint.signature);
        if (state !== 'unknown') return { state, signature: hint.signature };
      }
      const found = await byMessage(key);
      if (found.state !== 'unknown') return found;
      return { state: expired ? 'expired' : 'unknown', signature: hint.signature };
    },
  };
}
