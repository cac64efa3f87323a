/**
 * The payment store on Redis, shared by several API instances: the semantics of
 * `createMemoryPaymentStore` exactly, with every state change one Lua script so two instances
 * can never both win a claim or both record one.
 *
 * Layout: one hash per payment at `<prefix><key>` with fields
 *   state        claimed | settled | pending | spent
 *   expires      absolute expiry (ms, the caller's clock); this alone decides liveness
 *   holder       the request holding a claim
 *   data         settled: the StoredResponse JSON; pending: the PendingSettlement JSON
 *   kept, keptExpires   on a claim: the PendingSettlement it becomes when the claim lapses
 * `now` comes from the JS side so an injected clock works; the Redis key expiry (PEXPIRE,
 * relative, plus a margin) only collects garbage and never decides a state.
 * One key per script, so it runs on Redis Cluster too.
 *
 * The Redis must not evict keys (see ../redis-eviction.ts): an evicted claim lets a payment buy twice.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { errorMessage } from '../../errors.js';
import type {
  ClaimOutcome,
  ClaimRecord,
  PaymentStore,
  PendingSettlement,
  StoredResponse,
} from '../../x402/payment-store.js';
import { REDIS_PREFIXES } from '../redis-keys.js';

export interface RedisPaymentStoreOptions {
  readonly redis: Redis;
  /** Closing the store quits the client (set when the client was made for this store). */
  readonly ownsClient?: boolean;
  /** Namespace of the payment keys. */
  readonly prefix?: string;
  readonly inFlightTtlMs?: number;
  readonly settledTtlMs?: number;
  readonly now?: () => number;
}

/** Key expiry beyond the entry's own: GC only, so clocks a little apart never lose an entry. */
const GC_MARGIN_MS = 60_000;

const PRELUDE = `
local key, now = KEYS[1], tonumber(ARGV[1])
local function collect(expires)
  redis.call('PEXPIRE', key, math.ceil(expires - now + ${GC_MARGIN_MS}))
end
-- The entry at now: expired ones are gone, a lapsed claim with a kept result turns pending.
local function live()
  local e = redis.call('HMGET', key, 'state', 'expires', 'keptExpires')
  if not e[1] then return nil end
  if tonumber(e[2]) > now then return e[1] end
  if e[1] == 'claimed' and e[3] and tonumber(e[3]) > now then
    local kept = redis.call('HGET', key, 'kept')
    redis.call('DEL', key)
    redis.call('HSET', key, 'state', 'pending', 'expires', e[3], 'data', kept)
    collect(tonumber(e[3]))
    return 'pending'
  end
  redis.call('DEL', key)
  return nil
end
local function held(holder)
  return live() == 'claimed' and redis.call('HGET', key, 'holder') == holder
end
`;

/** ARGV: now, holder, expires. Returns {state[, data]}. */
const CLAIM = `
local state = live()
if not state then
  redis.call('HSET', key, 'state', 'claimed', 'holder', ARGV[2], 'expires', ARGV[3])
  collect(tonumber(ARGV[3]))
  return {'claimed'}
end
if state == 'claimed' then return {'in_flight'} end
if state == 'spent' then return {'spent'} end
return {state, redis.call('HGET', key, 'data')}
`;

/** ARGV: now, holder, expires. Returns the pending JSON, or nil when nothing is pending. */
const CLAIM_PENDING = `
if live() ~= 'pending' then return false end
local e = redis.call('HMGET', key, 'data', 'expires')
redis.call('DEL', key)
redis.call('HSET', key, 'state', 'claimed', 'holder', ARGV[2], 'expires', ARGV[3],
  'kept', e[1], 'keptExpires', e[2])
collect(math.max(tonumber(ARGV[3]), tonumber(e[2])))
return e[1]
`;

/** ARGV: now, holder, pending JSON, its expiry. Returns 1 when kept. */
const MARK_SENDING = `
if not held(ARGV[2]) then return 0 end
redis.call('HSET', key, 'kept', ARGV[3], 'keptExpires', ARGV[4])
collect(math.max(tonumber(ARGV[4]), tonumber(redis.call('HGET', key, 'expires'))))
return 1
`;

/** ARGV: now, holder. */
const RELEASE = `
if held(ARGV[2]) then redis.call('DEL', key) end
return 0
`;

/** ARGV: now, holder, state, data, expires. Returns 1 when recorded. */
const RECORD = `
if not held(ARGV[2]) then return 0 end
redis.call('DEL', key)
redis.call('HSET', key, 'state', ARGV[3], 'expires', ARGV[5], 'data', ARGV[4])
collect(tonumber(ARGV[5]))
return 1
`;

type Script = (key: string, ...args: (string | number)[]) => Promise<unknown>;

/** EVALSHA, loading the script when Redis does not have it (first use, or after a restart). */
function script(redis: Redis, body: string): Script {
  const lua = PRELUDE + body;
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (key, ...args) => {
    try {
      return await redis.evalsha(sha, 1, key, ...args);
    } catch (error) {
      if (!errorMessage(error).startsWith('NOSCRIPT')) throw error;
      return redis.eval(lua, 1, key, ...args);
    }
  };
}

export function createRedisPaymentStore(options: RedisPaymentStoreOptions): PaymentStore {
  const { redis } = options;
  const prefix = options.prefix ?? REDIS_PREFIXES.payments;
  const inFlightTtl = options.inFlightTtlMs ?? 5 * 60_000;
  const settledTtl = options.settledTtlMs ?? 7 * 24 * 3_600_000;
  const now = options.now ?? Date.now;
  const scripts = {
    claim: script(redis, CLAIM),
    claimPending: script(redis, CLAIM_PENDING),
    markSending: script(redis, MARK_SENDING),
    release: script(redis, RELEASE),
    record: script(redis, RECORD),
  };
  // Each call reads the clock once: the script's `now` and the expiries it stores agree.
  const call = (name: keyof typeof scripts, key: string, t: number, ...args: string[]) =>
    scripts[name](prefix + key, String(t), ...args);

  return {
    async claim(key, holder) {
      const t = now();
      const reply = await call('claim', key, t, holder, String(t + inFlightTtl));
      return claimOutcome(reply as [string, string?]);
    },
    async claimPending(key, holder) {
      const t = now();
      const reply = await call('claimPending', key, t, holder, String(t + inFlightTtl));
      return reply === null ? null : (JSON.parse(String(reply)) as PendingSettlement);
    },
    async markSending(key, holder, pending) {
      const t = now();
      const kept = JSON.stringify(pending);
      return (await call('markSending', key, t, holder, kept, String(t + settledTtl))) === 1;
    },
    async release(key, holder) {
      await call('release', key, now(), holder);
    },
    async record(key, holder, record) {
      const t = now();
      const expires = String(t + settledTtl);
      return (await call('record', key, t, holder, record.state, dataOf(record), expires)) === 1;
    },
    async check() {
      try {
        await redis.ping();
      } catch (error) {
        throw new Error(`Redis payment store unavailable: ${errorMessage(error)}`);
      }
    },
    async close() {
      if (options.ownsClient !== true) return;
      // quit is refused while disconnected (no offline queue): then just drop the connection.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function claimOutcome([state, data]: [string, string?]): ClaimOutcome {
  if (state === 'claimed' || state === 'in_flight' || state === 'spent') return { state };
  if (state === 'settled') return { state, response: JSON.parse(data ?? '') as StoredResponse };
  if (state === 'pending') return { state, pending: JSON.parse(data ?? '') as PendingSettlement };
  throw new Error(`Redis payment store: unknown state ${state}`);
}

function dataOf(record: ClaimRecord): string {
  if (record.state === 'settled') return JSON.stringify(record.response);
  if (record.state === 'pending') return JSON.stringify(record.pending);
  return '';
}
