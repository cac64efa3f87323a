/**
 * Where the service keeps what must outlive a request: payment state, watches and their
 * deliveries, result cache and single flight, the generated signing key. `config.stateStore`
 * chooses one backend for all of them (docs/architecture.md, "The state room"):
 *   - `memory` (STATE_STORE=memory): this process's memory, lost at exit;
 *   - `disk` (the default): an embedded database under STATE_DIR (survives restarts and kill -9),
 *     single flight within the process;
 *   - `redis` (REDIS_URL): shared by every instance (deliveries as BullMQ jobs).
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
import { openLmdbCache } from './cache/lmdb.js';
import { createMemoryCache } from './cache/memory.js';
import { createRedisCache } from './cache/redis.js';
import { createRedisFlights } from './cache/redis-flights.js';
import { StateError } from './error.js';
import { openLmdbFactStore } from './facts/lmdb.js';
import { createMemoryFactStore } from './facts/memory.js';
import { createRedisFactStore } from './facts/redis.js';
import { openLmdbPaymentStore } from './payments/lmdb.js';
import { createMemoryPaymentStore } from './payments/memory.js';
import { createRedisPaymentStore } from './payments/redis.js';
import { connectRedis } from './redis-client.js';
import { assertNoEviction, persistenceWarning } from './redis-eviction.js';
import { loadSigningKey } from './signing-key.js';
import { openLmdbWatchState } from './watches/lmdb.js';
import { createMemoryWatchState } from './watches/memory.js';
import type { WatchStateOptions } from './watches/store.js';

export { StateError };

export interface ServiceState {
  readonly payments: PaymentStore;
  readonly cache: CacheStore;
  /** Absent: identical scans are coalesced within this process only. */
  readonly flights?: ScanFlights;
  /** Facts that cannot change, beside the payments; absent when FACT_STORE_MAX_ENTRIES is 0. */
  readonly facts?: FactStore;
  /** Where payment state lives, as /health shows it. */
  readonly where: string;
  /** Watches and their deliveries, beside the payments. */
  readonly watches: WatchState;
  /** The key the paid results and the watches' deliveries are signed with. */
  readonly signingKey: SigningKey;
  close(): Promise<void>;
}

/** In place of the configured caps (MAX_WATCHES…), and, for tests, the delivery's pace. */
export type WatchSettings = Partial<
  Pick<
    WatchStateOptions,
    'maxWatches' | 'maxWatchesPerSubject' | 'resolve' | 'retry' | 'pollMs' | 'postLimits'
  >
>;

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
  const opened = await openStore(config, log);
  let watches: WatchState;
  let signingKey: SigningKey;
  try {
    signingKey = await loadSigningKey(config);
    watches = await opened.openWatches({
      mode: config.mode,
      signingKey,
      maxWatches: config.watch.maxWatches,
      maxWatchesPerSubject: config.watch.maxWatchesPerSubject,
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

function openStore(config: Config, log: StateLog): Promise<Opened> {
  switch (config.stateStore) {
    case 'memory':
      return Promise.resolve(memoryState(config));
    case 'disk':
      return openEmbeddedState(config);
    case 'redis':
      return openRedisState(config, log);
  }
}

/** Everything in this process's memory: nothing survives its exit, nothing is shared. */
function memoryState(config: Config): Opened {
  const payments = createMemoryPaymentStore({ inFlightTtlMs: config.claimTtlMs });
  return {
    state: {
      payments,
      cache: createMemoryCache(),
      ...factsInMemory(config),
      where: 'memory of this process (lost at exit)',
      close: () => payments.close(),
    },
    openWatches: async (options) => createMemoryWatchState(options),
  };
}

/** Rejects with an operator's message: `what` cannot be kept in STATE_DIR. */
const embeddedStateError = (config: Config, what: string) => (e: unknown) =>
  Promise.reject(
    new StateError(
      `Cannot keep ${what} in ${config.stateDir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory.`,
    ),
  );

async function openEmbeddedState(config: Config): Promise<Opened> {
  const payments = await openLmdbPaymentStore({
    path: config.stateDir,
    inFlightTtlMs: config.claimTtlMs,
  }).catch(embeddedStateError(config, 'payment state'));
  const cache = await openEmbeddedCache(config).catch(async (e: unknown) => {
    await payments.close();
    return embeddedStateError(config, 'the result cache')(e);
  });
  const kept = await openEmbeddedFacts(config).catch(async (e: unknown) => {
    await cache.close();
    await payments.close();
    return embeddedStateError(config, 'facts')(e);
  });
  return {
    state: {
      payments,
      cache,
      ...(kept.facts ? { facts: kept.facts } : {}),
      where: `embedded database in ${config.stateDir}`,
      close: async () => {
        await kept.close();
        await cache.close();
        await payments.close();
      },
    },
    openWatches: (options) =>
      openLmdbWatchState(config.stateDir, options).catch(embeddedStateError(config, 'watches')),
  };
}

const redisStateError = (e: unknown) =>
  new StateError(
    `Cannot use REDIS_URL: ${reasonOf(e)}. Fix Redis or REDIS_URL (unset it to keep state on this machine).`,
  );

async function openRedisState(config: Config, log: StateLog): Promise<Opened> {
  const url = config.redisUrl as string; // set whenever stateStore is 'redis' (config.ts)
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
 * The result cache in the payments' environment. The sandbox keeps its results in memory, as it
 * keeps its facts: its chain is seeded afresh at each start (a changed scenario included), and a
 * result kept on disk could describe what the new chain no longer holds.
 */
async function openEmbeddedCache(config: Config): Promise<CacheStore & { close(): Promise<void> }> {
  if (config.mode === 'sandbox') return { ...createMemoryCache(), close: async () => {} };
  return openLmdbCache({ path: config.stateDir });
}

/** Facts kept in this process, unless none is to be kept. */
function factsInMemory(config: Config): { facts?: FactStore } {
  if (config.factStoreMaxEntries === 0) return {};
  return { facts: createMemoryFactStore({ maxEntries: config.factStoreMaxEntries }) };
}

/**
 * The fact store in the payments' environment (its own databases), unless none is to be kept. The
 * sandbox's chain is seeded afresh at each start, so its facts are kept in memory, for as long as
 * that chain lives: on disk they could name what a changed scenario no longer holds.
 */
async function openEmbeddedFacts(config: Config): Promise<{ facts?: FactStore; close(): Promise<void> }> {
  if (config.mode === 'sandbox') return { ...factsInMemory(config), close: async () => {} };
  if (config.factStoreMaxEntries === 0) return { close: async () => {} };
  const facts = await openLmdbFactStore({ path: config.stateDir, maxEntries: config.factStoreMaxEntries });
  return { facts, close: () => facts.close() };
}

/** The fact store on the instances' Redis, unless none is to be kept. */
function factsOnRedis(config: Config, redis: Redis): { facts?: FactStore } {
  if (config.factStoreMaxEntries === 0) return {};
  return { facts: createRedisFactStore({ redis, maxEntries: config.factStoreMaxEntries }) };
}
