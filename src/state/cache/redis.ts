/**
 * The result cache on Redis, shared by every instance: `SET key value PX ttl` and `GET`.
 * Each command is bounded in time, because a client waiting to reconnect queues commands
 * instead of failing them, and a scan must not wait on a cache that is down: its failures
 * reach ScanService, which treats them as misses.
 */
import type { Redis } from 'ioredis';
import type { CacheStore } from '../../scans/cache-store.js';
import { REDIS_PREFIXES } from '../redis-keys.js';

export interface RedisCacheOptions {
  readonly redis: Redis;
  /** Namespace of the cache's keys. */
  readonly prefix?: string;
  /** Longest a command may take before it counts as failed. */
  readonly commandTimeoutMs?: number;
}

export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 1000;

export function createRedisCache(options: RedisCacheOptions): CacheStore {
  const { redis } = options;
  const prefix = options.prefix ?? REDIS_PREFIXES.cache;
  const limit = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  return {
    async get(key) {
      const value = await redisCommand(redis, () => redis.get(prefix + key), limit);
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      // PX takes a positive whole number; a TTL that rounds to nothing stores nothing.
      const px = Math.ceil(ttlMs);
      if (px <= 0) return;
      await redisCommand(redis, () => redis.set(prefix + key, value, 'PX', px), limit);
    },
  };
}

/** Statuses in which the client knows it has no connection (not merely one still opening). */
const DOWN = new Set(['reconnecting', 'close', 'end']);

/**
 * Issues `command` and rejects if it has not settled within `ms`. A client that knows it is
 * disconnected fails at once and issues nothing, rather than queueing the command for later.
 */
export function redisCommand<T>(redis: Redis, command: () => Promise<T>, ms: number): Promise<T> {
  if (DOWN.has(redis.status)) return Promise.reject(new Error(`Redis is ${redis.status}`));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([command(), timeout]).finally(() => clearTimeout(timer));
}
