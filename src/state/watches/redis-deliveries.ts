/**
 * The Redis state's sending side: each delivery is a BullMQ job whose id is its webhook-id, so
 * queueing one change twice keeps one job; BullMQ gives each job to one worker of all instances
 * at a time, retries it with the retry schedule as backoff, and a job a crashed instance held
 * goes back to the queue. A delivery recorded but not yet queued when its instance died is
 * queued again from the pending set at the next start (and every minute by any instance).
 * A delivery whose record cannot be read is failed once, without retries (BullMQ keeps the
 * failed job a day, for whoever looks into it), and logged by its ids.
 */
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { errorMessage } from '../../errors.js';
import { createSender } from '../../watch/delivery/sender.js';
import type { Watch } from '../../watch/model.js';
import type { RedisWatchKeys } from '../redis-keys.js';
import type { WatchStateOptions } from './store.js';
import { isUnreadable, parseStoredDelivery } from './stored-delivery.js';

interface DeliveriesOptions extends WatchStateOptions {
  readonly redis: Redis;
  readonly url: string;
  readonly keys: RedisWatchKeys;
  readonly read: (id: string) => Promise<Watch | null>;
  /** How long the queue and its worker may take to start before the start is given up. */
  readonly startTimeoutMs?: number;
}

/** The expiry of the watch, not a count, ends the retries (see afterAttempt). */
const ATTEMPTS = 1_000_000;
const RECONCILE_EVERY_MS = 60_000;
const CONCURRENCY = 16;
const START_TIMEOUT_MS = 15_000;
/** Redis's answers that refuse the start for good: credentials and permissions. */
const REFUSALS = /^(NOAUTH|WRONGPASS|NOPERM|ERR AUTH|ERR invalid password)/;

/** A delivery not yet delivered: BullMQ retries the job after the backoff. */
class NotDelivered extends Error {
  override readonly name = 'NotDelivered';
}

type Log = WatchStateOptions['log'];

/** What sending one job does: the delivery it names, sent and written back, or dropped. */
function jobProcessor(options: DeliveriesOptions, sender: ReturnType<typeof createSender>) {
  const { redis, keys } = options;
  const done = (webhookId: string) => redis.srem(keys.pending, webhookId);
  return async (job: Job<{ webhookId?: unknown }>): Promise<void> => {
    const webhookId = job.data?.webhookId;
    if (typeof webhookId !== 'string')
      drop(options.log, String(job.id), { unreadable: 'job names no delivery' });
    const key = keys.delivery(webhookId);
    const json = await redis.get(key);
    const stored = json === null ? null : parseStoredDelivery(json);
    if (stored !== null && isUnreadable(stored)) {
      await done(webhookId);
      drop(options.log, webhookId, stored);
    }
    if (stored === null || stored.record.state !== 'pending') {
      await done(webhookId);
      return;
    }
    const result = await sender.send(stored, await options.read(stored.record.watchId));
    await redis.set(key, JSON.stringify({ record: result.record, body: stored.body }), 'KEEPTTL');
    if (result.retryAt === null) {
      await done(webhookId);
      return;
    }
    const last = result.record.attempts.at(-1);
    throw new NotDelivered(`webhook answered ${last?.status ?? last?.error ?? 'nothing'}`);
  };
}

/** Fails the job for good (no retry) and says which delivery was dropped, and why. */
function drop(log: Log, webhookId: string, why: { unreadable: string; watchId?: string }): never {
  log?.warn(
    { webhookId, watchId: why.watchId, err: why.unreadable },
    'watch delivery record unreadable: dropped, not retried',
  );
  throw new UnrecoverableError(`delivery ${webhookId} unreadable: ${why.unreadable}`);
}

interface QueueParts {
  readonly queue: Queue;
  readonly worker: Worker;
  /** BullMQ's connections, ours to close: BullMQ leaves a connection it was given open. */
  readonly connections: readonly Redis[];
  readonly warn: (e: unknown) => void;
  /** The last connection or queue error seen, '' when none. */
  readonly lastError: () => string;
  /** Rejects at the first refusal by Redis (a wrong password, a command the user may not run). */
  readonly refused: Promise<never>;
}

/** BullMQ's connections, its queue and its worker, not started; what is made is closed if the rest cannot be. */
function openQueue(
  options: DeliveriesOptions,
  process: ReturnType<typeof jobProcessor>,
  retry: (n: number) => number,
): QueueParts {
  // Logged once per change of error, not at every reconnection attempt.
  let lastError = '';
  let refuse: (e: unknown) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  refused.catch(() => undefined); // heard by the start only; later refusals are logged
  const warn = (e: unknown) => {
    // A refusal of who we are or what we may run will not change by retrying (a lost connection,
    // or a Redis still LOADING its data, may).
    if (e instanceof Error && e.name === 'ReplyError' && REFUSALS.test(e.message)) refuse(e);
    const message = errorMessage(e);
    if (message !== lastError) options.log?.warn({ err: message }, 'watch delivery queue error');
    lastError = message;
  };
  // BullMQ's blocking reads need connections that retry for ever (maxRetriesPerRequest null).
  const connections = [0, 1].map(() => new Redis(options.url, { maxRetriesPerRequest: null }));
  for (const made of connections) made.on('error', warn);
  const { queue: name, queuePrefix: prefix } = options.keys;
  let queue: Queue | undefined;
  try {
    queue = new Queue(name, {
      prefix,
      connection: connections[0] as Redis,
      defaultJobOptions: {
        attempts: ATTEMPTS,
        backoff: { type: 'watch' },
        removeOnComplete: { age: 3_600 },
        removeOnFail: { age: 24 * 3_600 },
      },
    });
    queue.on('error', warn);
    // Not run until the start has succeeded: a worker that cannot start is not left polling.
    const worker = new Worker(name, process, {
      prefix,
      connection: connections[1] as Redis,
      concurrency: CONCURRENCY,
      autorun: false,
      settings: { backoffStrategy: retry },
    });
    worker.on('error', warn);
    return { queue, worker, connections, warn, lastError: () => lastError, refused };
  } catch (e) {
    for (const made of connections) made.disconnect();
    void queue?.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Closes the queue: the worker first (it finishes the attempts in flight), then the queue and
 * the connections. After a failed start (`abandon`), or while Redis is away (a connection not
 * ready), the connections are cut first and the worker is not waited for: a graceful close
 * would wait for a Redis that does not answer, and an attempt in flight could not record its
 * outcome anyway (its job comes back once its lock expires, with the same webhook-id). Never
 * throws.
 */
async function closeQueue(parts: QueueParts, abandon = false): Promise<void> {
  const cut = abandon || parts.connections.some((c) => c.status !== 'ready');
  if (cut) for (const c of parts.connections) c.disconnect();
  await parts.worker.close(cut).catch(() => undefined);
  await parts.queue.close().catch(() => undefined);
  if (!cut) await Promise.all(parts.connections.map((c) => c.quit().catch(() => c.disconnect())));
}

/** Resolves with `started`, or rejects once `ms` have passed without it, with the last error seen. */
async function within<T>(started: Promise<T>, ms: number, lastError: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seen = lastError();
      reject(new Error(`Redis did not answer within ${ms} ms${seen === '' ? '' : ` (last error: ${seen})`}`));
    }, ms);
  });
  try {
    return await Promise.race([started, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function createRedisDeliveries(options: DeliveriesOptions) {
  const { redis, keys } = options;
  const sender = createSender(options);
  const parts = openQueue(options, jobProcessor(options, sender), (n) => sender.retry(n));
  const { queue, worker } = parts;
  const enqueue = async (webhookId: string) => {
    await queue.add('deliver', { webhookId }, { jobId: webhookId });
  };
  const reconcile = async () => {
    for (const webhookId of await redis.smembers(keys.pending)) await enqueue(webhookId);
  };
  try {
    const starting = Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]).then(reconcile);
    await within(
      Promise.race([starting, parts.refused]),
      options.startTimeoutMs ?? START_TIMEOUT_MS,
      parts.lastError,
    );
  } catch (e) {
    await closeQueue(parts, true);
    throw new Error(`the watch delivery queue could not start on Redis: ${errorMessage(e)}`, { cause: e });
  }
  worker.run().catch(parts.warn);
  const timer = setInterval(() => reconcile().catch(parts.warn), RECONCILE_EVERY_MS);
  timer.unref();
  let closing: Promise<void> | undefined;
  return {
    enqueue,
    close: () => {
      clearInterval(timer);
      closing ??= closeQueue(parts);
      return closing;
    },
  };
}
