/**
 * WatchState on Redis (REDIS_URL), shared by every instance: watches and their delivery logs in
 * Redis (redis-scripts.ts), deliveries as BullMQ jobs (redis-deliveries.ts). Two instances that
 * see the same change both call recordChange; the compare-and-set on the watch's version lets
 * one record it, and the job's id is the delivery's webhook-id, so it is queued once. A watch
 * created or cancelled is announced to every instance (redis-news.ts), whose triggers then follow
 * it or let it go at once.
 */
import type { Redis } from 'ioredis';
import { errorMessage } from '../../errors.js';
import type { AlertPayload, DeliveryRecord, Watch, WatchRefusal, WatchState } from '../../watch/model.js';
import {
  type ActiveCounts,
  DEFAULT_KEEP_DELIVERIES,
  ENDED_RETENTION_MS,
  newDelivery,
  refusalAt,
  type StoredDelivery,
  type WatchCaps,
  watchAt,
  withChange,
} from '../../watch/rules.js';
import { REDIS_PREFIXES, type RedisWatchKeys, redisWatchKeys } from '../redis-keys.js';
import { createRedisDeliveries } from './redis-deliveries.js';
import { openWatchNews, type WatchNews } from './redis-news.js';
import { CANCEL, CREATE, RECORD_CHANGE } from './redis-scripts.js';
import type { WatchStateOptions } from './store.js';
import { isUnreadable, parseStoredDelivery } from './stored-delivery.js';

export interface RedisWatchStateOptions extends WatchStateOptions {
  /** For commands; shared with the rest of the service's state, not closed here. */
  readonly redis: Redis;
  /** BullMQ opens its own connections (its blocking reads need them). */
  readonly url: string;
  /** Namespace of the keys and of the queue (tests use their own). */
  readonly prefix?: string;
  /** How long the delivery queue may take to start before opening fails; default 15 s. */
  readonly startTimeoutMs?: number;
}

type Scripted = Redis & {
  watchCreate(...args: (string | number)[]): Promise<string>;
  watchCancel(...args: (string | number)[]): Promise<number>;
  watchRecordChange(...args: (string | number)[]): Promise<number>;
};

function withScripts(redis: Redis): Scripted {
  const scripted = redis as Scripted;
  // defineCommand sends EVALSHA and loads the script when Redis lacks it.
  if (typeof scripted.watchCreate !== 'function') {
    redis.defineCommand('watchCreate', { numberOfKeys: 3, lua: CREATE });
    redis.defineCommand('watchCancel', { numberOfKeys: 3, lua: CANCEL });
    redis.defineCommand('watchRecordChange', { numberOfKeys: 4, lua: RECORD_CHANGE });
  }
  return scripted;
}

/** A stored watch, or null when there is none or its record cannot be read (it is then passed over, not fatal to the rest). */
function watchOf(fields: Record<string, string>): Watch | null {
  if (fields.json === undefined) return null;
  let watch: Watch;
  try {
    watch = JSON.parse(fields.json) as Watch;
  } catch {
    return null;
  }
  // Valid JSON that is no watch (null, {}) is passed over the same way.
  if (
    typeof watch?.id !== 'string' ||
    typeof watch.subject !== 'string' ||
    typeof watch.latest !== 'object'
  ) {
    return null;
  }
  return { ...watch, status: fields.status as Watch['status'], version: Number(fields.version) };
}

/** The active, unexpired watches at `at`, in all and on `subject`, read together. */
async function countsAt(
  redis: Redis,
  keys: RedisWatchKeys,
  subject: string,
  at: number,
): Promise<ActiveCounts> {
  const replies = await redis
    .multi()
    .zcount(keys.active, `(${at}`, '+inf')
    .zcount(keys.subject(subject), `(${at}`, '+inf')
    .exec();
  const [total, ofSubject] = (replies ?? []).map(([error, count]) => {
    if (error) throw error;
    return Number(count);
  });
  return { total: total ?? 0, subject: ofSubject ?? 0 };
}

/**
 * Keeps `watch` unless the caps refuse it: the counts are read, the rule decides on them, and
 * the script keeps the watch only if they are still those counts (else it reads them again),
 * so of concurrent creations on every instance no more than the caps are taken.
 */
async function createWatch(
  deps: { redis: Scripted; keys: RedisWatchKeys; caps: WatchCaps; now: () => number },
  watch: Watch,
  paid: boolean,
): Promise<'ok' | 'exists' | WatchRefusal> {
  const { redis, keys } = deps;
  for (;;) {
    const at = deps.now();
    const counts = paid ? { total: -1, subject: -1 } : await countsAt(redis, keys, watch.subject, at);
    const refusal = refusalAt(counts, deps.caps, paid);
    if (refusal !== null) return (await redis.exists(keys.watch(watch.id))) === 1 ? 'exists' : refusal;
    const outcome = await redis.watchCreate(
      ...[keys.active, keys.subject(watch.subject), keys.watch(watch.id)],
      ...[at, counts.total, counts.subject, watch.id, watch.expiresAt],
      ...[JSON.stringify(watch), watch.version, watch.expiresAt + ENDED_RETENTION_MS],
    );
    if (outcome !== 'moved') return outcome as 'ok' | 'exists';
  }
}

/** The news channel; the deliveries already started are closed when it cannot start. */
function openNews(
  options: RedisWatchStateOptions,
  keys: RedisWatchKeys,
  deliveries: { close(): Promise<void> },
): Promise<WatchNews> {
  const { redis, url, log } = options;
  return openWatchNews({ redis, url, channel: keys.news, log }).catch(async (e: unknown) => {
    await deliveries.close();
    throw new Error(`the watch news channel could not start on Redis: ${errorMessage(e)}`);
  });
}

export async function openRedisWatchState(options: RedisWatchStateOptions): Promise<WatchState> {
  const redis = withScripts(options.redis);
  const prefix = options.prefix ?? REDIS_PREFIXES.watches;
  const keys = redisWatchKeys(prefix);
  const now = options.now ?? Date.now;
  const keep = options.keepDeliveries ?? DEFAULT_KEEP_DELIVERIES;
  const read = async (id: string) => watchOf(await redis.hgetall(keys.watch(id)));
  const get = async (id: string) => {
    const watch = await read(id);
    return watch === null ? null : watchAt(watch, now());
  };
  // The delivery queue first: its start names what Redis refused (and closes what it opened).
  const deliveries = await createRedisDeliveries({ ...options, redis, keys, read });
  const news = await openNews(options, keys, deliveries);

  const recordChange = (id: string, version: number, payload: AlertPayload) =>
    recordRedisChange(
      { redis, keys, keep, now, read, log: options.log, enqueue: deliveries.enqueue },
      id,
      version,
      payload,
    );

  return {
    room: async (subject) => {
      const at = now();
      return refusalAt(await countsAt(redis, keys, subject, at), options);
    },
    create: async (watch, how) => {
      const outcome = await createWatch({ redis, keys, caps: options, now }, watch, how?.paid === true);
      if (outcome === 'exists') return (await get(watch.id)) ?? watch;
      if (outcome !== 'ok') return outcome;
      await news.announce();
      return watch;
    },
    get,
    cancel: async (id) => {
      const watch = await read(id);
      if (watch === null) return null;
      const cancelled = await redis.watchCancel(
        keys.watch(id),
        keys.active,
        keys.subject(watch.subject),
        now(),
        id,
      );
      // Only a watch this call ended is news to the other instances.
      if (cancelled === 1) await news.announce();
      return get(id);
    },
    active: async () => {
      const at = now();
      const ids = await redis.zrangebyscore(keys.active, `(${at}`, '+inf');
      const watches = await Promise.all(ids.map(get));
      return watches.filter((w): w is Watch => w !== null && w.status === 'active');
    },
    recordChange,
    deliveries: (id, limit) => deliveryLog(redis, keys, id, limit),
    check: async () => {
      await redis.ping();
    },
    watchesChanged: news.listen,
    close: async () => {
      await news.close();
      await deliveries.close();
    },
  };
}

interface ChangeDeps {
  readonly redis: Scripted;
  readonly keys: RedisWatchKeys;
  readonly keep: number;
  readonly now: () => number;
  readonly read: (id: string) => Promise<Watch | null>;
  readonly log: WatchStateOptions['log'];
  readonly enqueue: (webhookId: string) => Promise<void>;
}

/** The compare-and-set of recordChange (RECORD_CHANGE), then the delivery's job. */
async function recordRedisChange(
  deps: ChangeDeps,
  id: string,
  version: number,
  payload: AlertPayload,
): Promise<DeliveryRecord | null> {
  const { keys } = deps;
  const watch = await deps.read(id);
  if (watch === null || watch.version !== version) return null;
  const at = deps.now();
  const record = newDelivery(watch, at);
  const stored: StoredDelivery = { record, body: JSON.stringify(payload) };
  const keepUntil = watch.expiresAt + ENDED_RETENTION_MS;
  const recorded = await deps.redis.watchRecordChange(
    ...[keys.watch(id), keys.log(id), keys.delivery(record.webhookId), keys.pending],
    ...[at, version, JSON.stringify(withChange(watch, payload)), record.webhookId],
    ...[JSON.stringify(stored), deps.keep, keepUntil, keys.deliveryPrefix],
  );
  if (recorded !== 1) return null;
  // Recorded is what counts: a delivery not queued now is queued from the pending set later.
  await deps.enqueue(record.webhookId).catch((e: unknown) => {
    deps.log?.warn({ err: errorMessage(e), webhookId: record.webhookId }, 'watch delivery queued later');
  });
  return record;
}

async function deliveryLog(
  redis: Redis,
  keys: RedisWatchKeys,
  id: string,
  limit: number,
): Promise<DeliveryRecord[]> {
  if (limit <= 0) return [];
  const ids = await redis.lrange(keys.log(id), 0, limit - 1);
  const stored = ids.length === 0 ? [] : await redis.mget(ids.map(keys.delivery));
  // A record that cannot be read is passed over (its job drops it), not fatal to the log.
  return stored.flatMap((json) => {
    const read = json === null ? null : parseStoredDelivery(json);
    return read === null || isUnreadable(read) ? [] : [read.record];
  });
}
