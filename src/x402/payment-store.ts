/**
 * Where payments are claimed before work starts, so one payment buys exactly one result.
 * A payment key (sha256 of the signed message) is claimed by one holder (the request's id);
 * only that holder may give the claim back or record what became of it, so a claim that was
 * lost (expired, taken over) can never record a sale. A settled payment keeps its response, so
 * the payer can fetch it again; a payment whose settlement was ambiguous keeps its result until
 * the chain says whether it landed; a payment settled by someone else is kept as spent.
 * The interface is the payment core's; src/state/payments/ implements it (memory, LMDB, Redis),
 * each held to test/helpers/payment-store-contract.ts.
 */

/** A response exactly as it was delivered (replayed byte for byte). */
export interface StoredResponse {
  /**
   * The path whose result this is (`/scan/token/<mint>`): a payment's result is given again
   * only to a request for that same path, never as the answer about another subject.
   */
  readonly resource: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a settlement receipt says besides its outcome and transaction. */
export interface ReceiptBasis {
  readonly version: 1 | 2;
  readonly network: string;
  readonly payer: string;
}

/** A result produced and kept while we learn whether its payment landed. */
export interface PendingSettlement {
  /** The result, without its receipt (written once the outcome is known). */
  readonly response: StoredResponse;
  readonly receipt: ReceiptBasis;
  /** Signature the facilitator reported, when it reported one. */
  readonly signature: string | null;
  /** Recent blockhash of the payment: once it expires unlanded, the payment never lands. */
  readonly blockhash: string;
  /**
   * When the result was kept (ms since the epoch): the payment cannot have landed long before,
   * which bounds the search of the chain. Absent in records kept before it was written down.
   */
  readonly keptAt?: number;
}

export type ClaimOutcome =
  | { readonly state: 'claimed' }
  | { readonly state: 'in_flight' }
  | { readonly state: 'settled'; readonly response: StoredResponse }
  | { readonly state: 'pending'; readonly pending: PendingSettlement }
  /** Settled by a sender that was not one of our claims: it buys nothing here. */
  | { readonly state: 'spent' };

/** What a claim ends as, when it is not given back. */
export type ClaimRecord =
  | { readonly state: 'settled'; readonly response: StoredResponse }
  | { readonly state: 'pending'; readonly pending: PendingSettlement }
  | { readonly state: 'spent' };

export interface PaymentStore {
  /** Claims `key` for `holder`, or says what already holds it. */
  claim(key: string, holder: string): Promise<ClaimOutcome>;
  /** Claims a pending payment for `holder` to re-check (so two retries do not race). */
  claimPending(key: string, holder: string): Promise<PendingSettlement | null>;
  /** Gives `holder`'s claim back: the payment is as if never presented. No-op for anyone else. */
  release(key: string, holder: string): Promise<void>;
  /**
   * Keeps the result `holder` is about to settle, before the settle call: should the holder
   * vanish (crash, restart) the claim turns into this pending settlement when it expires, so the
   * chain decides and the payer gets this very result, never a second one. False when `holder`
   * no longer holds the claim.
   */
  markSending(key: string, holder: string, pending: PendingSettlement): Promise<boolean>;
  /** Records what became of `holder`'s claim; false when `holder` no longer holds it. */
  record(key: string, holder: string, record: ClaimRecord): Promise<boolean>;
  /** Whether the store can be used now (for /health); throws with the reason when not. */
  check(): Promise<void>;
  /** Flushes and closes; the store is not used afterwards. */
  close(): Promise<void>;
}
