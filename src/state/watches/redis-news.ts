/**
 * Tells every instance on one Redis that the set of watches changed (a watch created or
 * cancelled through any of them), so that each instance's triggers follow a watch bought
 * through another within moments, not at their next periodic check (5 minutes by default).
 * Redis pub/sub delivers a message only to who is connected when it is sent, so an instance
 * whose listening connection comes back is told as well; the periodic check remains the net.
 */
import { Redis } from 'ioredis';
import { errorMessage } from '../../errors.js';

export interface WatchNews {
  /** Tells every instance (this one too); never throws: a lost message costs a delay, not a watch. */
  announce(): Promise<void>;
  /** Calls `listener` on each announcement and on each reconnection; returns how to stop. */
  listen(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface WatchNewsOptions {
  /** For publishing; shared, not closed here. */
  readonly redis: Redis;
  /** A subscribed connection takes no other command: this opens its own. */
  readonly url: string;
  readonly channel: string;
  readonly log?: { warn(fields: object, message: string): void } | undefined;
}

export async function openWatchNews(options: WatchNewsOptions): Promise<WatchNews> {
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of [...listeners]) listener();
  };
  const subscriber = new Redis(options.url, { lazyConnect: true });
  // Reconnection errors are the watch state's to report (its own connection sees them too).
  subscriber.on('error', () => {});
  try {
    await subscriber.connect();
    await subscriber.subscribe(options.channel);
  } catch (e) {
    subscriber.disconnect();
    throw e;
  }
  subscriber.on('message', tell);
  // ioredis subscribes again on reconnection; what was announced meanwhile was not heard.
  subscriber.on('ready', tell);
  return {
    announce: async () => {
      await options.redis.publish(options.channel, '1').catch((e: unknown) => {
        options.log?.warn({ err: errorMessage(e) }, 'watch change not announced to other instances');
      });
    },
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      listeners.clear();
      // Nothing to flush on a listening connection; quit would wait for a Redis that is down.
      subscriber.disconnect();
    },
  };
}
