/**
 * Where the service keeps what must outlive a request: payment state, result cache and single
 * flight. One machine: payment state in an embedded database under STATE_DIR (survives restarts
 * and kill -9), cache and single flight in memory. Several machines: all three on REDIS_URL.
 */
import type { Redis } from 'ioredis';
import type { ScanFlights } from '../cache/flights.js';
import { createRedisCache } from '../cache/redis-cache.js';
import { createRedisFlights } from '../cache/redis-flights.js';
import { type CacheStore, createMemoryCache } from '../cache/result-cache.js';
import type { Config } from '../config.js';
import { errorMessage } from '../errors.js';
import type { PaymentStore } from '../x402/payment-store.js';
import { openLmdbPaymentStore } from './lmdb-payment-store.js';
import { assertNoEviction, persistenceWarning } from './redis-eviction.js';
import { connectRedis, createRedisPaymentStore } from './redis-payment-store.js';

export interface ServiceState {
  readonly payments: PaymentStore;
  readonly cache: CacheStore;
  /** Absent: identical scans are coalesced within this process only. */
  readonly flights?: ScanFlights;
  /** Where payment state lives, as /health shows it. */
  readonly where: string;
  close(): Promise<void>;
}

/** The configured state cannot be used; the message says what to change. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

const reasonOf = (e: unknown) => errorMessage(e).replace(/\.+$/, '');

export interface StateLog {
  warn(fields: object, message: string): void;
}

/** Opens the configured state; throws with an operator's message when it cannot be used. */
export async function openState(config: Config, log: StateLog): Promise<ServiceState> {
  if (config.redisUrl !== null) {
    return openRedisState(config.redisUrl, config.claimTtlMs, log).catch((e: unknown) => {
      throw new StateError(
        `Cannot use REDIS_URL: ${reasonOf(e)}. Fix Redis or REDIS_URL (unset it to keep state on this machine).`,
      );
    });
  }
  const payments = await openLmdbPaymentStore({
    path: config.stateDir,
    inFlightTtlMs: config.claimTtlMs,
  }).catch((e: unknown) => {
    throw new StateError(
      `Cannot keep payment state in ${config.stateDir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory.`,
    );
  });
  return {
    payments,
    cache: createMemoryCache(),
    where: `embedded database in ${config.stateDir}`,
    close: () => payments.close(),
  };
}

async function openRedisState(url: string, claimTtlMs: number, log: StateLog): Promise<ServiceState> {
  // Connection errors also reject the commands they affect; logged once per change of state.
  let lastError = '';
  const redis: Redis = await connectRedis(url, (e) => {
    if (e.message !== lastError) log.warn({ err: e.message }, 'Redis connection error');
    lastError = e.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  try {
    await assertNoEviction(redis);
    const warning = await persistenceWarning(redis);
    if (warning !== null) log.warn({ redis: new URL(url).host }, warning);
  } catch (e) {
    redis.disconnect();
    throw e;
  }
  const payments = createRedisPaymentStore({ redis, inFlightTtlMs: claimTtlMs });
  const flights = createRedisFlights({ redis });
  return {
    payments,
    cache: createRedisCache({ redis }),
    flights,
    where: `Redis at ${new URL(url).host}`,
    close: async () => {
      flights.close();
      await payments.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
