/**
 * Where the service keeps what must outlive a request: payment state, watches and their
 * deliveries, result cache and single flight. One machine: payments and watches in an embedded
 * database under STATE_DIR (survives restarts and kill -9), cache and single flight in memory.
 * Several machines: all of them on REDIS_URL (deliveries as BullMQ jobs).
 */
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { errorMessage } from '../errors.js';
import type { CacheStore } from '../scans/cache-store.js';
import type { FactStore } from '../scans/fact-store.js';
import type { ScanFlights } from '../scans/flights.js';
import type { SigningKey } from '../signing/key.js';
import type { WatchState } from '../watch/model.js';
import type { PaymentStore } from '../x402/payment-store.js';
import { createMemoryCache } from './cache/memory.js';
import { createRedisCache } from './cache/redis.js';
import { createRedisFlights } from './cache/redis-flights.js';
import { StateError } from './error.js';
import { openLmdbFactStore } from './facts/lmdb.js';
import { createMemoryFactStore } from './facts/memory.js';
import { createRedisFactStore } from './facts/redis.js';
import { openLmdbPaymentStore } from './payments/lmdb.js';
import { createRedisPaymentStore } from './payments/redis.js';
import { connectRedis } from './redis-client.js';
import { assertNoEviction, persistenceWarning } from './redis-eviction.js';
import { loadSigningKey } from './signing-key.js';
import { openLmdbWatchState } from './watches/lmdb.js';
import type { WatchStateOptions } from './watches/store.js';

export { StateError };

export interface ServiceState {
  readonly payments: PaymentStore;
  readonly cache: CacheStore;
  /** Absent: identical scans are coalesced within this process only. */
  readonly flights?: ScanFlights;
  /** Where payment state lives, as /health shows it. */
  readonly where: string;
  /** Watches and their deliveries, beside the payments. */
  readonly watches: WatchState;
  /** The key the paid results and the watches' deliveries are signed with. */
  readonly signingKey: SigningKey;
  /** Facts that cannot change, beside the payments; absent when FACT_STORE_MAX_ENTRIES is 0. */
  readonly facts?: FactStore;
  close(): Promise<void>;
}

/** The caps the door's settings give (MAX_WATCHES…), and, for tests, the delivery's pace. */
export type WatchSettings = Partial<
  Pick<
    WatchStateOptions,
    'maxWatches' | 'maxWatchesPerSubject' | 'resolve' | 'retry' | 'pollMs' | 'postLimits'
  >
>;

export const DEFAULT_MAX_WATCHES = 1_000;
export const DEFAULT_MAX_WATCHES_PER_SUBJECT = 50;

const reasonOf = (e: unknown) => errorMessage(e).replace(/\.+$/, '');

export interface StateLog {
  warn(fields: object, message: string): void;
}

/** A state's payments, cache and flights, and how to open its watches next to them. */
interface Opened {
  readonly state: Omit<ServiceState, 'watches' | 'signingKey'>;
  openWatches(options: WatchStateOptions): Promise<WatchState>;
}

/**
 * Opens the configured state; throws with an operator's message when it cannot be used.
 * Payments first (their failures are named first), then the signing key the deliveries (and
 * the paid results) are signed with, then the watches beside the payments.
 */
export async function openState(
  config: Config,
  log: StateLog,
  settings: WatchSettings = {},
): Promise<ServiceState> {
  const opened =
    config.redisUrl === null ? await openEmbeddedState(config) : await openRedisState(config, log);
  let watches: WatchState;
  let signingKey: SigningKey;
  try {
    signingKey = await loadSigningKey(config);
    watches = await opened.openWatches({
      mode: config.mode,
      signingKey,
      maxWatches: settings.maxWatches ?? DEFAULT_MAX_WATCHES,
      maxWatchesPerSubject: settings.maxWatchesPerSubject ?? DEFAULT_MAX_WATCHES_PER_SUBJECT,
      ...settings,
      log,
    });
  } catch (e) {
    await opened.state.close();
    throw e;
  }
  return {
    ...opened.state,
    watches,
    signingKey,
    close: async () => {
      await watches.close();
      await opened.state.close();
    },
  };
}

async function openEmbeddedState(config: Config): Promise<Opened> {
  const payments = await openLmdbPaymentStore({
    path: config.stateDir,
    inFlightTtlMs: config.claimTtlMs,
  }).catch((e: unknown) => {
    throw new StateError(
      `Cannot keep payment state in ${config.stateDir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory.`,
    );
  });
  const facts = await openEmbeddedFacts(config, payments);
  return {
    state: {
      payments,
      cache: createMemoryCache(),
      ...(facts ? { facts } : {}),
      where: `embedded database in ${config.stateDir}`,
      close: async () => {
        await facts?.close();
        await payments.close();
      },
    },
    openWatches: (options) =>
      openLmdbWatchState(config.stateDir, options).catch((e: unknown) => {
        throw new StateError(
          `Cannot keep watches in ${config.stateDir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory.`,
        );
      }),
  };
}

const redisStateError = (e: unknown) =>
  new StateError(
    `Cannot use REDIS_URL: ${reasonOf(e)}. Fix Redis or REDIS_URL (unset it to keep state on this machine).`,
  );

async function openRedisState(config: Config, log: StateLog): Promise<Opened> {
  const url = config.redisUrl as string;
  const redis = await connectCheckedRedis(url, log).catch((e: unknown) => {
    throw redisStateError(e);
  });
  const payments = createRedisPaymentStore({ redis, inFlightTtlMs: config.claimTtlMs });
  const flights = createRedisFlights({ redis });
  return {
    state: {
      payments,
      cache: createRedisCache({ redis }),
      ...factsOnRedis(config, redis),
      flights,
      where: `Redis at ${new URL(url).host}`,
      close: async () => {
        flights.close();
        await payments.close();
        await redis.quit().catch(() => redis.disconnect());
      },
    },
    openWatches: async (options) => {
      // Loaded only here: BullMQ is not to weigh on the start of a service that does not use Redis.
      const { openRedisWatchState } = await import('./watches/redis.js');
      return openRedisWatchState({ ...options, redis, url }).catch((e: unknown) => {
        throw redisStateError(e);
      });
    },
  };
}

/** A client on REDIS_URL that will not evict payment keys; warns when Redis does not persist. */
async function connectCheckedRedis(url: string, log: StateLog): Promise<Redis> {
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
  return redis;
}

/**
 * The fact store in the payments' environment (its own databases), unless none is to be kept. The
 * sandbox's chain is seeded afresh at each start, so its facts are kept in memory, for as long as
 * that chain lives: on disk they could name what a changed scenario no longer holds.
 */
async function openEmbeddedFacts(config: Config, payments: { close(): Promise<void> }) {
  if (config.factStoreMaxEntries === 0) return undefined;
  if (config.mode === 'sandbox') {
    return { ...createMemoryFactStore({ maxEntries: config.factStoreMaxEntries }), close: async () => {} };
  }
  return openLmdbFactStore({ path: config.stateDir, maxEntries: config.factStoreMaxEntries }).catch(
    async (e: unknown) => {
      await payments.close();
      throw new StateError(
        `Cannot keep facts in ${config.stateDir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory.`,
      );
    },
  );
}

/** The fact store on the instances' Redis, unless none is to be kept. */
function factsOnRedis(config: Config, redis: Redis): { facts?: FactStore } {
  if (config.factStoreMaxEntries === 0) return {};
  return { facts: createRedisFactStore({ redis, maxEntries: config.factStoreMaxEntries }) };
}
