/**
 * The result cache in the LMDB environment of STATE_DIR (beside payments and watches), so a
 * restart keeps what was scanned and processes sharing the directory share it. Two databases:
 * `result-cache` (key → value and expiry) and `result-cache-expiry` ([expiry, key], in order of
 * expiry). Each set evicts what has expired, then, while the cache holds more than its bound,
 * the entries nearest their expiry. The cache is not made durable before answering: a cached
 * result lost to a power cut is only scanned again. Single flight stays within each process
 * (scans/flights.ts): processes on one directory may each run a scan the other is running.
 */
import type { Database } from 'lmdb';
import type { CacheStore } from '../../scans/cache-store.js';
import { useEnvironment } from '../lmdb-environment.js';

export interface LmdbCacheOptions {
  /** Directory of the environment (STATE_DIR); created when missing. */
  readonly path: string;
  /** Entries kept at most; default 10,000. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** A cache that holds its use of the environment until closed. */
export interface LmdbCache extends CacheStore {
  close(): Promise<void>;
}

/** The databases' names (tests read them directly). */
export const LMDB_CACHE_DBS = { values: 'result-cache', expiry: 'result-cache-expiry' } as const;
export const DEFAULT_CACHE_ENTRIES = 10_000;
/** Expired entries one set removes at most: no write holds the lock for long. */
const EVICT_BATCH = 100;

interface Entry {
  readonly value: string;
  readonly expires: number;
}

type ExpiryKey = [number, string];

export async function openLmdbCache(options: LmdbCacheOptions): Promise<LmdbCache> {
  const environment = await useEnvironment(options.path);
  const { root } = environment;
  const values = root.openDB<Entry, string>({ name: LMDB_CACHE_DBS.values, encoding: 'json' });
  const byExpiry = root.openDB<true, ExpiryKey>({ name: LMDB_CACHE_DBS.expiry, encoding: 'json' });
  const maxEntries = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const remove = (key: string, entry: Entry) => {
    values.remove(key);
    byExpiry.remove([entry.expires, key]);
  };
  return {
    async get(key) {
      const entry = values.get(key);
      return entry === undefined || entry.expires <= now() ? undefined : entry.value;
    },
    async set(key, value, ttlMs) {
      if (!(ttlMs > 0)) return;
      const at = now();
      await root.transaction(() => {
        const old = values.get(key);
        if (old !== undefined) remove(key, old);
        values.put(key, { value, expires: at + ttlMs });
        byExpiry.put([at + ttlMs, key], true);
        evict(values, byExpiry, at, maxEntries);
      });
    },
    close: () => environment.close(),
  };
}

/** Inside a write transaction: the expired entries (a batch), then the nearest expiries past the bound. */
function evict(
  values: Database<Entry, string>,
  byExpiry: Database<true, ExpiryKey>,
  at: number,
  maxEntries: number,
): void {
  // Collected first: the range cursor is not to see the removals it causes.
  const oldest = Array.from(byExpiry.getKeys({ limit: EVICT_BATCH }));
  let count = (values.getStats() as { entryCount: number }).entryCount;
  for (const [expires, key] of oldest) {
    if (expires > at && count <= maxEntries) break;
    values.remove(key);
    byExpiry.remove([expires, key]);
    count--;
  }
}
