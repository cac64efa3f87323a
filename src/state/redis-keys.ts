/**
 * Every key the service keeps on Redis (REDIS_URL), in one place: what holds what. Each part
 * of the state takes its prefix from here (tests give their own, so they share no key).
 */
export const REDIS_PREFIXES = {
  /** One hash per payment key (state, holder, expiry, the kept response): payments/redis.ts. */
  payments: 'x402:payment:',
  /** One string per cached scan result, expiring with its TTL: cache/redis.ts. */
  cache: 'risk-scan:cache:',
  /** Single flight across instances: a lock and a pub/sub channel per run (redisFlightKeys). */
  flights: 'risk-scan:flight:',
  /** Watches, their delivery logs, the deliveries and their BullMQ queue (redisWatchKeys). */
  watches: 'risk-scan:watch:',
  /** Facts that cannot change, and the order they were kept in (redisFactKeys). */
  facts: 'risk-scan:fact:',
} as const;

/** The service's signing key (PKCS#8 PEM), set once by the first instance: signing-key.ts. */
export const SIGNING_KEY_REDIS_KEY = 'risk-scan:signing-key';

/** The keys of one single-flight run: cache/redis-flights.ts. */
export function redisFlightKeys(prefix: string) {
  return {
    /** Held by the instance that runs the scan (`SET NX PX`). */
    lock: (key: string) => `${prefix}lock:${key}`,
    /** Where the holder publishes the value (or its failure) to the waiting instances. */
    done: (key: string) => `${prefix}done:${key}`,
  };
}

/** Where the Redis watch state keeps each thing, under one prefix: watches/redis.ts. */
export function redisWatchKeys(prefix: string) {
  return {
    /** A hash per watch: `json` (the Watch), and `status`, `version`, `expiresAt` for the scripts. */
    watch: (id: string) => `${prefix}w:${id}`,
    /** Sorted set of the active watches, scored by expiry. */
    active: `${prefix}active`,
    /** Sorted set of one subject's active watches (its cap). */
    subject: (subject: string) => `${prefix}subject:${subject}`,
    /** List of a watch's webhook-ids, newest first. */
    log: (id: string) => `${prefix}log:${id}`,
    deliveryPrefix: `${prefix}d:`,
    /** A delivery's record and body (JSON). */
    delivery: (webhookId: string) => `${prefix}d:${webhookId}`,
    /** The webhook-ids not yet delivered or failed: re-queued at start (a crash between recording and queueing). */
    pending: `${prefix}pending`,
    /** The pub/sub channel on which a watch created or cancelled is announced to every instance. */
    news: `${prefix}news`,
    /** BullMQ's own keys (`<prefix>bull:watch-deliveries:*`): a job per delivery, its id the webhook-id. */
    queuePrefix: `${prefix}bull`,
    queue: 'watch-deliveries',
  };
}

export type RedisWatchKeys = ReturnType<typeof redisWatchKeys>;

/** Where the Redis fact store keeps each thing, under one prefix: facts/redis.ts. */
export function redisFactKeys(prefix: string) {
  return {
    /** A string per fact (JSON: its value and the slot it was read at). */
    fact: (key: string) => `${prefix}f:${key}`,
    factPrefix: `${prefix}f:`,
    /** Sorted set of the facts' keys, scored by the order they were kept: the oldest evicted first. */
    order: `${prefix}order`,
    /** The counter that gives that order. */
    seq: `${prefix}seq`,
  };
}
