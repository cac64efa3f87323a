/**
 * Where payments are claimed before work starts, so one payment buys exactly one result.
 * A payment key (sha256 of the signed message) is claimed by one holder (the request's id);
 * only that holder may give the claim back or record what became of it, so a claim that was
 * lost (expired, taken over) can never record a sale. A settled payment keeps its response, so
 * the payer can fetch it again; a payment whose settlement was ambiguous keeps its result until
 * the chain says whether it landed; a payment settled by someone else is kept as spent.
 * In memory here; durable and shared stores implement the same interface.
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

export interface MemoryStoreOptions {
  /** An abandoned claim (crashed request) frees itself after this long. */
  readonly inFlightTtlMs?: number;
  /** Settled responses are kept this long, so a lost response can be fetched again. */
  readonly settledTtlMs?: number;
  /** Most settled and pending entries kept; the oldest go first. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

type Entry =
  | {
      state: 'claimed';
      holder: string;
      expires: number;
      /** Set while a pending settlement is re-checked: it comes back if the checker vanishes. */
      pending?: { pending: PendingSettlement; expires: number };
    }
  | { state: 'settled'; response: StoredResponse; expires: number }
  | { state: 'pending'; pending: PendingSettlement; expires: number }
  | { state: 'spent'; expires: number };

export function createMemoryPaymentStore(options: MemoryStoreOptions = {}): PaymentStore {
  const inFlightTtl = options.inFlightTtlMs ?? 5 * 60_000;
  const settledTtl = options.settledTtlMs ?? 7 * 24 * 3_600_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined || entry.expires > now()) return entry;
    if (entry.state === 'claimed' && entry.pending !== undefined && entry.pending.expires > now()) {
      const restored: Entry = { state: 'pending', ...entry.pending };
      entries.set(key, restored);
      return restored;
    }
    entries.delete(key);
    return undefined;
  };
  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    // Maps iterate in insertion order: the first keys are the oldest.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      if (entries.get(oldest)?.state === 'claimed') continue;
      entries.delete(oldest);
    }
  };
  const heldBy = (key: string, holder: string): boolean => {
    const entry = live(key);
    return entry?.state === 'claimed' && entry.holder === holder;
  };

  return {
    async claim(key, holder) {
      const entry = live(key);
      if (entry === undefined) {
        put(key, { state: 'claimed', holder, expires: now() + inFlightTtl });
        return { state: 'claimed' };
      }
      if (entry.state === 'claimed') return { state: 'in_flight' };
      if (entry.state === 'settled') return { state: 'settled', response: entry.response };
      if (entry.state === 'pending') return { state: 'pending', pending: entry.pending };
      return { state: 'spent' };
    },
    async claimPending(key, holder) {
      const entry = live(key);
      if (entry?.state !== 'pending') return null;
      const kept = { pending: entry.pending, expires: entry.expires };
      entries.set(key, { state: 'claimed', holder, expires: now() + inFlightTtl, pending: kept });
      return entry.pending;
    },
    async markSending(key, holder, pending) {
      const entry = live(key);
      if (entry?.state !== 'claimed' || entry.holder !== holder) return false;
      entry.pending = { pending, expires: now() + settledTtl };
      return true;
    },
    async release(key, holder) {
      if (heldBy(key, holder)) entries.delete(key);
    },
    async record(key, holder, record) {
      if (!heldBy(key, holder)) return false;
      const expires = now() + settledTtl;
      if (record.state === 'settled') put(key, { state: 'settled', response: record.response, expires });
      else if (record.state === 'pending') put(key, { state: 'pending', pending: record.pending, expires });
      else put(key, { state: 'spent', expires });
      return true;
    },
    async check() {},
    async close() {},
  };
}
