/**
 * Refuses a Redis that may evict payment keys. An evicted claim lets one payment buy two results;
 * an evicted settled or pending entry loses a paid result. Only `noeviction` is accepted: every
 * payment key carries a TTL (garbage collection), so the `volatile-*` policies could evict them
 * as well as the `allkeys-*` ones. With noeviction a full Redis refuses writes instead, which the
 * paid call turns into an error before anything is charged.
 *
 * The policy is read from `INFO memory`, which managed Redis services answer even where CONFIG
 * is disabled. A server that does not report it is refused too: it cannot be shown safe.
 */
import type { Redis } from 'ioredis';

export async function assertNoEviction(redis: Redis): Promise<void> {
  const info = await redis.info('memory');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy === 'noeviction') return;
  const found = policy === undefined ? 'is not reported by INFO memory' : `is "${policy}"`;
  throw new Error(
    `Redis maxmemory-policy ${found}: it could evict payment keys (a payment bought twice, a paid result lost); set maxmemory-policy to noeviction`,
  );
}

/**
 * Whether Redis writes every change to its append-only file. Without it, a Redis restart forgets
 * settled payments: their payers lose the stored response, and only the facilitator then stands
 * between a replayed payment and a second result. Managed services that replicate instead of
 * persisting report it off, so this is a warning, not a refusal.
 */
export async function persistenceWarning(redis: Redis): Promise<string | null> {
  const info = await redis.info('persistence');
  if (/^aof_enabled:1/m.test(info)) return null;
  return 'Redis does not persist with an append-only file (appendonly no): a Redis restart forgets settled payments; set appendonly yes (appendfsync everysec or always)';
}
