/**
 * Where payments are claimed before work starts, so one payment buys exactly one result:
 * a payment key (sha256 of the signed message) is claimed once; a settled payment keeps its
 * response, so the payer can fetch it again; a payment whose settlement was ambiguous keeps
 * its result until the chain says whether it landed. In memory here; Redis shares it across
 * instances (same interface).
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

/** A result produced and kept while we learn whether its payment landed. */
export interface PendingSettlement {
  readonly response: StoredResponse;
  /** Signature the facilitator reported, when it reported one. */
  readonly signature: string | null;
  /** Recent blockhash of the payment: once it expires unlanded, the payment never lands. */
  readonly blockhash: string;
}

export type ClaimOutcome =
  | { readonly state: 'claimed' }
  | { readonly state: 'in_flight' }
  | { readonly state: 'settled'; readonly response: StoredResponse }
  | { readonly state: 'pending'; readonly pending: PendingSettlement };

export interface PaymentStore {
  /** Claims `key` for this request, or says what already holds it. */
  claim(key: string): Promise<ClaimOutcome>;
  /** Gives a claim back: nothing was settled, the payment may be used again. */
  release(key: string): Promise<void>;
  /** Records the delivered response of a settled payment. */
  complete(key: string, response: StoredResponse): Promise<void>;
  /** Keeps a produced result while settlement is unknown. */
  markPending(key: string, pending: PendingSettlement): Promise<void>;
  /** Claims a pending payment for re-checking (so two retries do not race). */
  claimPending(key: string): Promise<PendingSettlement | null>;
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
  | { state: 'in_flight'; expires: number }
  | { state: 'settled'; response: StoredResponse; expires: number }
  | { state: 'pending'; pending: PendingSettlement; expires: number; checking: boolean };

export function createMemoryPaymentStore(options: MemoryStoreOptions = {}): PaymentStore {
  const inFlightTtl = options.inFlightTtlMs ?? 5 * 60_000;
  const settledTtl = options.settledTtlMs ?? 7 * 24 * 3_600_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && entry.expires <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    // Maps iterate in insertion order: the first keys are the oldest.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      if (entries.get(oldest)?.state === 'in_flight') continue;
      entries.delete(oldest);
    }
  };

  return {
    async claim(key) {
      const entry = live(key);
      if (entry === undefined) {
        put(key, { state: 'in_flight', expires: now() + inFlightTtl });
        return { state: 'claimed' };
      }
      if (entry.state === 'settled') return { state: 'settled', response: entry.response };
      if (entry.state === 'pending') return { state: 'pending', pending: entry.pending };
      return { state: 'in_flight' };
    },
    async release(key) {
      entries.delete(key);
    },
    async complete(key, response) {
      put(key, { state: 'settled', response, expires: now() + settledTtl });
    },
    async markPending(key, pending) {
      put(key, { state: 'pending', pending, expires: now() + settledTtl, checking: false });
    },
    async claimPending(key) {
      const entry = live(key);
      if (entry?.state !== 'pending' || entry.checking) return null;
      entry.checking = true;
      // If the checker dies, the pending result must not be locked forever.
      setTimeout(() => {
        entry.checking = false;
      }, inFlightTtl).unref();
      return entry.pending;
    },
  };
}
