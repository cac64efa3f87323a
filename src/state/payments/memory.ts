/**
 * The payment store in one process's memory: what the payment core's tests use, and the
 * reference the LMDB and Redis stores behave exactly as.
 */
import type { PaymentStore, PendingSettlement, StoredResponse } from '../../x402/payment-store.js';

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
