/**
 * The Redis client every part of the state shares (payments, cache, single flight, watches,
 * the signing key): how it connects, and how it fails while Redis is down.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { errorMessage } from '../errors.js';

/**
 * Client options for a paid call that fails fast while Redis is down and recovers by itself:
 * - no offline queue: a command issued while disconnected rejects at once instead of waiting;
 * - commands in flight when the connection drops reject at once (maxRetriesPerRequest 0) and are
 *   never re-sent, since a re-sent claim could run twice and answer its own holder "in flight";
 * - a command timeout, for a Redis that stops answering without closing the connection;
 * - the client keeps reconnecting in the background, so the same store works again when it is back.
 */
export const REDIS_STORE_CLIENT_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 2_000,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
} satisfies RedisOptions;

/**
 * A client with REDIS_STORE_CLIENT_OPTIONS, connected (commands before that would be refused).
 * `onError` hears connection errors (ioredis prints them when nobody listens); they also reject
 * the commands they affect.
 */
export async function connectRedis(url: string, onError: (error: Error) => void = () => {}): Promise<Redis> {
  const redis = new Redis(url, { ...REDIS_STORE_CLIENT_OPTIONS, lazyConnect: true });
  // The socket's own error (ECONNREFUSED, a DNS failure) says more than "Connection is closed".
  let cause: unknown = null;
  const noteCause = (error: Error) => {
    cause ??= error;
  };
  redis.on('error', noteCause);
  redis.on('error', onError);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis at ${redactUrl(url)} is unreachable: ${errorMessage(cause ?? error)}`);
  } finally {
    redis.off('error', noteCause);
  }
  return redis;
}

/** The URL without its password, fit for a log line. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}
