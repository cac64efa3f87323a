/**
 * Facts on Redis (REDIS_URL), shared by every instance: a string per fact, and a sorted set of
 * their keys scored by the order they were kept, trimmed to the bound oldest first (bounds.ts) by
 * the same script that keeps a fact, so instances writing at once never overshoot it. Commands
 * are bounded in time as the result cache's are: a scan must not wait on a Redis that is down.
 */
import type { Redis } from 'ioredis';
import { type FactStore, keepsFact } from '../../scans/fact-store.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, redisCommand } from '../cache/redis.js';
import { REDIS_PREFIXES, redisFactKeys } from '../redis-keys.js';
import { type FactStoreOptions, factKey, maxEntriesOf } from './bounds.js';

/**
 * KEYS: order, seq, fact. ARGV: member, value, max, fact key prefix. Keeps the fact as the newest
 * and evicts the oldest past `max`.
 */
const KEEP = `
local seq = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[1], seq, ARGV[1])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if excess > 0 then
  for i, old in ipairs(redis.call('ZPOPMIN', KEYS[1], excess)) do
    if i % 2 == 1 then redis.call('DEL', ARGV[4] .. old) end
  end
end
return 1
`;

export interface RedisFactStoreOptions extends FactStoreOptions {
  readonly redis: Redis;
  /** Namespace of the store's keys (tests give their own). */
  readonly prefix?: string;
  readonly commandTimeoutMs?: number;
}

type WithKeep = Redis & {
  factKeep(order: string, seq: string, fact: string, ...args: (string | number)[]): Promise<number>;
};

export function createRedisFactStore(options: RedisFactStoreOptions): FactStore {
  const maxEntries = maxEntriesOf(options);
  const keys = redisFactKeys(options.prefix ?? REDIS_PREFIXES.facts);
  const limit = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  // defineCommand sends EVALSHA and loads the script when Redis lacks it.
  options.redis.defineCommand('factKeep', { numberOfKeys: 3, lua: KEEP });
  const redis = options.redis as WithKeep;
  return {
    async get(address, fact) {
      const text = await redisCommand(redis, () => redis.get(keys.fact(factKey(address, fact))), limit);
      if (text === null) return undefined;
      const kept = JSON.parse(text) as { value: string; slot: number };
      return { value: kept.value, slot: kept.slot };
    },
    async put(address, fact, read) {
      if (!keepsFact(read)) return false;
      const member = factKey(address, fact);
      const json = JSON.stringify({ value: read.value, slot: read.slot });
      await redisCommand(
        redis,
        () =>
          redis.factKeep(keys.order, keys.seq, keys.fact(member), member, json, maxEntries, keys.factPrefix),
        limit,
      );
      return true;
    },
  };
}
