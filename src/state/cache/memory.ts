/**
 * The result cache in this process's memory: an LRU bounded by entry count (one machine; with
 * REDIS_URL the cache is redis.ts).
 */
import type { CacheStore } from '../../scans/cache-store.js';

export function createMemoryCache(options: { maxEntries?: number; now?: () => number } = {}): CacheStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: string; expires: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      // Re-insert so the map's order is least recently used first.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    async set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}
