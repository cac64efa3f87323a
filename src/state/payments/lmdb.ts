/**
 * The payment store kept on local disk in an LMDB environment (the `lmdb` package), so claims,
 * kept results and settled responses survive a restart or a crash, and every process that
 * opens the same directory shares them. Behaves exactly as `createMemoryPaymentStore`.
 *
 * Each change runs in one LMDB write transaction together with the read it depends on: LMDB
 * allows one writer at a time across all processes, so two of them can never both claim a key.
 * Every call resolves once its transaction is committed, which a killed process cannot undo; a
 * result kept before settling and a recorded sale also wait until they are flushed to disk, so
 * not even a power loss takes them. A lost claim or release only frees a payment nothing was
 * settled for, or leaves it claimed until its TTL. Entries are JSON: a body's
 * string comes back exactly as stored (JSON escapes even lone surrogates).
 */
import type { Database } from 'lmdb';
import type {
  ClaimOutcome,
  ClaimRecord,
  PaymentStore,
  PendingSettlement,
  StoredResponse,
} from '../../x402/payment-store.js';
import { type EnvironmentLease, useEnvironment } from '../lmdb-environment.js';

export interface LmdbPaymentStoreOptions {
  /** Directory of the environment; created when missing. */
  readonly path: string;
  /** An abandoned claim (crashed request) frees itself after this long. */
  readonly inFlightTtlMs?: number;
  /** Settled responses are kept this long, so a lost response can be fetched again. */
  readonly settledTtlMs?: number;
  readonly now?: () => number;
}

/** Name of the LMDB database that holds the entries (tests read it directly). */
export const LMDB_PAYMENTS_DB = 'payments';
/** Writes between two sweeps of expired entries. */
export const SWEEP_EVERY_WRITES = 100;
/** Entries one sweep looks at: bounded, so no transaction holds the write lock for long. */
const SWEEP_BATCH = 500;

type Entry =
  | {
      readonly state: 'claimed';
      readonly holder: string;
      readonly expires: number;
      /** Kept result (markSending, claimPending): it becomes the entry when the claim expires. */
      readonly pending?: { readonly pending: PendingSettlement; readonly expires: number };
    }
  | { readonly state: 'settled'; readonly response: StoredResponse; readonly expires: number }
  | { readonly state: 'pending'; readonly pending: PendingSettlement; readonly expires: number }
  | { readonly state: 'spent'; readonly expires: number };
type Claim = Extract<Entry, { state: 'claimed' }>;

/** What an expired entry becomes: a claim's kept result outlives it, nothing else does. */
function afterExpiry(entry: Entry, at: number): Entry | undefined {
  if (entry.state === 'claimed' && entry.pending !== undefined && entry.pending.expires > at) {
    return { state: 'pending', ...entry.pending };
  }
  return undefined;
}

function outcomeOf(entry: Entry): ClaimOutcome {
  if (entry.state === 'claimed') return { state: 'in_flight' };
  if (entry.state === 'settled') return { state: 'settled', response: entry.response };
  if (entry.state === 'pending') return { state: 'pending', pending: entry.pending };
  return { state: 'spent' };
}

function recordEntry(record: ClaimRecord, expires: number): Entry {
  if (record.state === 'settled') return { state: 'settled', response: record.response, expires };
  if (record.state === 'pending') return { state: 'pending', pending: record.pending, expires };
  return { state: 'spent', expires };
}

/** Reads and writes inside one write transaction (only ever called from a transaction callback). */
class Entries {
  private sweepFrom: string | undefined;

  constructor(private readonly db: Database<Entry, string>) {}

  /** The entry as it stands at `at`: an expired one is removed (or becomes its kept result). */
  live(key: string, at: number): Entry | undefined {
    const entry = this.db.get(key);
    if (entry === undefined || entry.expires > at) return entry;
    return this.expire(key, entry, at);
  }

  /** The entry at `key` if `holder` holds its claim. */
  held(key: string, holder: string, at: number): Claim | undefined {
    const entry = this.live(key, at);
    return entry?.state === 'claimed' && entry.holder === holder ? entry : undefined;
  }

  put(key: string, entry: Entry): void {
    this.db.put(key, entry);
  }

  remove(key: string): void {
    this.db.remove(key);
  }

  /** Expires up to SWEEP_BATCH entries from where the last sweep stopped; true once it wrapped. */
  sweep(at: number): boolean {
    // Collected first: the range cursor is not to see the removals it causes.
    const range = this.sweepFrom === undefined ? {} : { start: this.sweepFrom };
    const batch = Array.from(this.db.getRange({ ...range, limit: SWEEP_BATCH }));
    for (const { key, value } of batch) if (value.expires <= at) this.expire(key, value, at);
    const done = batch.length < SWEEP_BATCH;
    this.sweepFrom = done ? undefined : batch.at(-1)?.key;
    return done;
  }

  private expire(key: string, entry: Entry, at: number): Entry | undefined {
    const next = afterExpiry(entry, at);
    if (next === undefined) this.db.remove(key);
    else this.db.put(key, next);
    return next;
  }
}

/** Opens (creating when missing) the environment at `path`; expired entries are swept first. */
export async function openLmdbPaymentStore(options: LmdbPaymentStoreOptions): Promise<PaymentStore> {
  const environment = await useEnvironment(options.path);
  try {
    const db = environment.root.openDB<Entry, string>({ name: LMDB_PAYMENTS_DB, encoding: 'json' });
    const store = lmdbStore(environment, db, options);
    await store.sweepAll();
    return store.api;
  } catch (error) {
    await environment.close();
    throw error;
  }
}

function lmdbStore(
  environment: EnvironmentLease,
  db: Database<Entry, string>,
  options: LmdbPaymentStoreOptions,
): { api: PaymentStore; sweepAll(): Promise<void> } {
  const inFlightTtl = options.inFlightTtlMs ?? 5 * 60_000;
  const settledTtl = options.settledTtlMs ?? 7 * 24 * 3_600_000;
  const now = options.now ?? Date.now;
  const entries = new Entries(db);
  let writes = 0;
  let closing: Promise<void> | undefined;

  /** Runs `change` atomically with its reads; resolves once committed, or once on disk if `durable`. */
  const transact = async <T>(change: (at: number) => T, durable = false): Promise<T> => {
    if (closing !== undefined) throw new Error(`payment store at ${options.path} is closed`);
    const result = await db.transaction(() => change(now()));
    if (durable) await db.flushed;
    return result;
  };
  /** A change that also sweeps, now and then, so expired entries nobody asks for again go too. */
  const write = <T>(change: (at: number) => T, durable = false): Promise<T> =>
    transact((at) => {
      const value = change(at);
      if (++writes % SWEEP_EVERY_WRITES === 0) entries.sweep(at);
      return value;
    }, durable);

  const api: PaymentStore = {
    claim: (key, holder) =>
      write((at) => {
        const entry = entries.live(key, at);
        if (entry !== undefined) return outcomeOf(entry);
        entries.put(key, { state: 'claimed', holder, expires: at + inFlightTtl });
        return { state: 'claimed' } as const;
      }),
    claimPending: (key, holder) =>
      write((at) => {
        const entry = entries.live(key, at);
        if (entry?.state !== 'pending') return null;
        const pending = { pending: entry.pending, expires: entry.expires };
        entries.put(key, { state: 'claimed', holder, expires: at + inFlightTtl, pending });
        return entry.pending;
      }),
    markSending: (key, holder, pending) =>
      write((at) => {
        const entry = entries.held(key, holder, at);
        if (entry === undefined) return false;
        entries.put(key, { ...entry, pending: { pending, expires: at + settledTtl } });
        return true;
      }, true),
    release: (key, holder) =>
      write((at) => {
        if (entries.held(key, holder, at) !== undefined) entries.remove(key);
      }),
    record: (key, holder, record) =>
      write((at) => {
        if (entries.held(key, holder, at) === undefined) return false;
        entries.put(key, recordEntry(record, at + settledTtl));
        return true;
      }, true),
    check: async () => {
      if (closing !== undefined) throw new Error(`payment store at ${options.path} is closed`);
      try {
        environment.root.getStats();
      } catch (error) {
        throw new Error(`payment store at ${options.path} is unusable: ${(error as Error).message}`);
      }
    },
    close: () => {
      closing ??= environment.close();
      return closing;
    },
  };
  const sweepAll = async () => {
    let done = false;
    while (!done) done = await transact((at) => entries.sweep(at));
  };
  return { api, sweepAll };
}
