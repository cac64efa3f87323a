/**
 * Where the scans cache their results, by endpoint and subject: the interface the scans own,
 * implemented by src/state/cache/ (memory, LMDB, Redis). Values are JSON text so every store behaves
 * the same.
 */
export interface CacheStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
