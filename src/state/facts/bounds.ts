/**
 * What every fact store shares: the key of a fact, and its bound. Eviction is the same in all
 * three: at most `maxEntries` facts, the one kept longest ago evicted first (a fact kept again
 * counts as kept now). Facts never go stale, so age of keeping is the only order needed, and it
 * costs a read nothing (no write on a hit, which LRU would need in LMDB and Redis).
 */

/** Facts kept by default: a kept transaction is ~3 KB (5 KB at most in the seeded sandbox), so ~65 MB. */
export const DEFAULT_MAX_FACTS = 20_000;

export interface FactStoreOptions {
  /** Most facts kept; the oldest kept are evicted past it. */
  readonly maxEntries?: number;
}

/** One string per fact: its kind first, so a store's keys group by kind. */
export const factKey = (address: string, fact: string) => `${fact}:${address}`;

export function maxEntriesOf(options: FactStoreOptions): number {
  const max = options.maxEntries ?? DEFAULT_MAX_FACTS;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new Error(`a fact store keeps at least one fact, not ${max}`);
  return max;
}
