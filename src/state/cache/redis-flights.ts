/**
 * Single flight across instances on Redis. The instance that takes a run's lock
 * (`SET lock token NX PX deadline`) runs the work and publishes its value on the run's channel;
 * the others wait for that message, checking the lock at a short interval in case the message
 * was missed or the holder died. A lock gone without a value (the holder failed or vanished) is
 * taken by a waiter, which runs the work itself; the work reads the cache first, so a value the
 * holder cached is not scanned again. The lock expires on its own, so a dead holder blocks no
 * one past the deadline, and waiting ends at the deadline. Any Redis failure runs the work here:
 * Redis may cost a second scan, never a failed one.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createLocalFlights, type ScanFlights } from '../../scans/flights.js';
import { REDIS_PREFIXES, redisFlightKeys } from '../redis-keys.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, redisCommand } from './redis.js';

type RedisFlightKeys = ReturnType<typeof redisFlightKeys>;

export interface RedisFlightsOptions {
  readonly redis: Redis;
  /** Namespace of the locks and channels. */
  readonly prefix?: string;
  /** Longest between two checks of a lock being waited on. */
  readonly pollMs?: number;
  /** Longest a command may take before Redis counts as failed. */
  readonly commandTimeoutMs?: number;
}

export interface RedisFlights extends ScanFlights {
  /** Closes the subscriber connection this opened; the given client stays open. */
  close(): void;
}

export const DEFAULT_FLIGHT_POLL_MS = 100;

/** Deletes the lock only if this run still holds it (it may have expired and been taken). */
const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
/** Messages: the holder's work failed, or `VALUE` + the value. */
const FAILED = 'x';
const VALUE = 'v';

/** What a waiter does next: use a value, try to take the lock, or run the work here. */
type Step = { readonly value: string } | 'lead' | 'retry' | 'local';

export function createRedisFlights(options: RedisFlightsOptions): RedisFlights {
  return new Flights(
    options.redis,
    redisFlightKeys(options.prefix ?? REDIS_PREFIXES.flights),
    options.pollMs ?? DEFAULT_FLIGHT_POLL_MS,
    options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  );
}

class Flights implements RedisFlights {
  // Runs of one key in this process share one wait, so Redis sees one waiter per instance.
  private readonly local = createLocalFlights();
  private readonly inboxes = new Map<string, Inbox>();
  private subscriber: Redis | undefined;
  /** Settles once the subscriber's first connection attempt has (or has not) succeeded. */
  private subscriberOpened: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisFlightKeys,
    private readonly pollMs: number,
    private readonly commandTimeoutMs: number,
  ) {}

  run(key: string, deadlineMs: number, work: () => Promise<string>): Promise<string> {
    return this.local.run(key, deadlineMs, () => this.acrossInstances(key, deadlineMs, work));
  }

  close(): void {
    this.subscriber?.disconnect();
    this.subscriber = undefined;
  }

  private async acrossInstances(key: string, deadlineMs: number, work: () => Promise<string>) {
    const until = Date.now() + deadlineMs;
    const inbox = new Inbox(this.keys.done(key));
    try {
      for (;;) {
        const token = randomUUID();
        const step = await this.takeOrWait(key, token, deadlineMs, until, inbox).catch((): Step => 'local');
        if (step === 'lead') return await this.lead(key, token, work);
        if (step === 'local') return await work();
        if (step !== 'retry') return step.value;
      }
    } finally {
      this.unlisten(inbox);
    }
  }

  private async takeOrWait(key: string, token: string, deadlineMs: number, until: number, inbox: Inbox) {
    // The holder also reads the cache before its scan and writes it after: the lock outlasts both.
    const px = Math.max(1, Math.ceil(deadlineMs + 2 * this.commandTimeoutMs));
    const taken = await this.command(this.redis, () =>
      this.redis.set(this.lockKey(key), token, 'PX', px, 'NX'),
    );
    if (taken === 'OK') return 'lead';
    await this.listen(inbox);
    return this.wait(key, until, inbox);
  }

  /** Until a message, the lock's end, or the deadline; the lock is checked between naps. */
  private async wait(key: string, until: number, inbox: Inbox): Promise<Step> {
    for (;;) {
      if (inbox.has()) return inbox.read();
      const left = until - Date.now();
      if (left <= 0) return 'local';
      const ttl = await this.command(this.redis, () => this.redis.pttl(this.lockKey(key)));
      // Gone (-2): the holder is done or dead; its message may still be on the way.
      if (ttl === -2) return inbox.has() ? inbox.read() : 'retry';
      await inbox.nap(Math.min(this.pollMs, left, ttl >= 0 ? Math.max(ttl, 1) : this.pollMs));
    }
  }

  private async lead(key: string, token: string, work: () => Promise<string>): Promise<string> {
    let value: string;
    try {
      value = await work();
    } catch (error) {
      this.finish(key, token, FAILED);
      throw error;
    }
    this.finish(key, token, VALUE + value);
    return value;
  }

  /**
   * Tells the waiters, then lets the lock go, in that order on one connection. Not awaited: the
   * caller has its value. Skipped while disconnected, so a stale value is never published late.
   */
  private finish(key: string, token: string, message: string): void {
    if (this.redis.status !== 'ready') return;
    this.redis.publish(this.keys.done(key), message).catch(() => undefined);
    this.redis.eval(RELEASE, 1, this.lockKey(key), token).catch(() => undefined);
  }

  private async listen(inbox: Inbox): Promise<void> {
    if (this.inboxes.get(inbox.channel) === inbox) return;
    this.inboxes.set(inbox.channel, inbox);
    const subscriber = this.subscriberConnection();
    await this.command(subscriber, async () => {
      await this.subscriberOpened;
      return subscriber.subscribe(inbox.channel);
    });
  }

  private unlisten(inbox: Inbox): void {
    if (this.inboxes.get(inbox.channel) !== inbox) return;
    this.inboxes.delete(inbox.channel);
    this.subscriber?.unsubscribe(inbox.channel).catch(() => undefined);
  }

  /** A connection in subscriber mode can issue no other command, hence a second one. */
  private subscriberConnection(): Redis {
    if (this.subscriber !== undefined) return this.subscriber;
    const subscriber = this.redis.duplicate();
    // Its failures surface as failed subscriptions; the event would only be logged twice.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) =>
      this.inboxes.get(channel)?.deliver(message),
    );
    this.subscriber = subscriber;
    // The copy inherits a client that may connect lazily and refuse commands until ready (no
    // offline queue): its first SUBSCRIBE would fail and its waiter scan again. Open it first; a
    // failed first attempt leaves it reconnecting, and subscriptions fail until it is back.
    if (subscriber.status === 'wait') this.subscriberOpened = subscriber.connect().catch(() => undefined);
    return subscriber;
  }

  private command<T>(client: Redis, command: () => Promise<T>): Promise<T> {
    return redisCommand(client, command, this.commandTimeoutMs);
  }

  private lockKey(key: string): string {
    return this.keys.lock(key);
  }
}

/** The messages on one run's channel, for the one local run waiting on it. */
class Inbox {
  private message: string | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly channel: string) {}

  deliver(message: string): void {
    this.message = message;
    this.wake?.();
  }

  has(): boolean {
    return this.message !== undefined;
  }

  /** The holder's value, or 'retry' if its work failed. */
  read(): Step {
    const message = this.message ?? FAILED;
    this.message = undefined;
    return message === FAILED ? 'retry' : { value: message.slice(VALUE.length) };
  }

  /** Resolves when a message arrives or after `ms`. */
  nap(ms: number): Promise<void> {
    if (this.message !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
