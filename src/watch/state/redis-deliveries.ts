/**
 * The Redis state's sending side: each delivery is a BullMQ job whose id is its webhook-id, so
 * queueing one change twice keeps one job; BullMQ gives each job to one worker of all instances
 * at a time, retries it with the retry schedule as backoff, and a job a crashed instance held
 * goes back to the queue. A delivery recorded but not yet queued when its instance died is
 * queued again from the pending set at the next start (and every minute by any instance).
 */
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { errorMessage } from '../../errors.js';
import type { Watch } from '../model.js';
import type { RedisWatchKeys } from './redis-keys.js';
import type { StoredDelivery, WatchStateOptions } from './rules.js';
import { createSender } from './sender.js';

interface DeliveriesOptions extends WatchStateOptions {
  readonly redis: Redis;
  readonly url: string;
  readonly keys: RedisWatchKeys;
  readonly prefix: string;
  readonly read: (id: string) => Promise<Watch | null>;
}

const QUEUE = 'watch-deliveries';
/** The expiry of the watch, not a count, ends the retries (see afterAttempt). */
const ATTEMPTS = 1_000_000;
const RECONCILE_EVERY_MS = 60_000;
const CONCURRENCY = 16;

/** A delivery not yet delivered: BullMQ retries the job after the backoff. */
class NotDelivered extends Error {
  override readonly name = 'NotDelivered';
}

export async function createRedisDeliveries(options: DeliveriesOptions) {
  const { redis, keys } = options;
  const sender = createSender(options);
  // BullMQ's blocking reads need connections that retry for ever (maxRetriesPerRequest null).
  // They are ours to close: BullMQ leaves a connection it was given open.
  const connections: Redis[] = [];
  // Logged once per change of error, not at every reconnection attempt.
  let lastError = '';
  const warn = (e: unknown) => {
    const message = errorMessage(e);
    if (message !== lastError) options.log?.warn({ err: message }, 'watch delivery queue error');
    lastError = message;
  };
  const connection = () => {
    const made = new Redis(options.url, { maxRetriesPerRequest: null });
    made.on('error', warn);
    connections.push(made);
    return made;
  };
  const shared = { prefix: `${options.prefix}bull`, connection: connection() };
  const queue = new Queue(QUEUE, {
    ...shared,
    defaultJobOptions: {
      attempts: ATTEMPTS,
      backoff: { type: 'watch' },
      removeOnComplete: { age: 3_600 },
      removeOnFail: { age: 24 * 3_600 },
    },
  });

  const process = async (job: Job<{ webhookId: string }>): Promise<void> => {
    const key = keys.delivery(job.data.webhookId);
    const json = await redis.get(key);
    const stored = json === null ? null : (JSON.parse(json) as StoredDelivery);
    if (stored === null || stored.record.state !== 'pending') {
      await redis.srem(keys.pending, job.data.webhookId);
      return;
    }
    const result = await sender.send(stored, await options.read(stored.record.watchId));
    await redis.set(key, JSON.stringify({ record: result.record, body: stored.body }), 'KEEPTTL');
    if (result.retryAt === null) {
      await redis.srem(keys.pending, job.data.webhookId);
      return;
    }
    const last = result.record.attempts.at(-1);
    throw new NotDelivered(`webhook answered ${last?.status ?? last?.error ?? 'nothing'}`);
  };
  const worker = new Worker(QUEUE, process, {
    prefix: shared.prefix,
    connection: connection(),
    concurrency: CONCURRENCY,
    settings: { backoffStrategy: (attemptsMade: number) => sender.retry(attemptsMade) },
  });
  worker.on('error', warn);
  queue.on('error', warn);

  const enqueue = async (webhookId: string) => {
    await queue.add('deliver', { webhookId }, { jobId: webhookId });
  };
  const reconcile = async () => {
    for (const webhookId of await redis.smembers(keys.pending)) await enqueue(webhookId);
  };
  await reconcile();
  const timer = setInterval(() => reconcile().catch(warn), RECONCILE_EVERY_MS);
  timer.unref();
  return {
    enqueue,
    close: async () => {
      clearInterval(timer);
      await worker.close();
      await queue.close();
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
