/**
 * WatchState kept in the LMDB environment that holds payments (STATE_DIR), so watches and their
 * pending deliveries survive a restart or a crash. Databases:
 *   - `watches`: id → Watch (every watch, until ENDED_RETENTION_MS after it ended);
 *   - `watch-active`: id → subject and expiry of each watch that counts against the caps;
 *   - `watch-log`: id → its deliveries' webhook-ids, newest first;
 *   - `watch-deliveries`: webhook-id → the DeliveryRecord and the body it sends;
 *   - `watch-pending`: webhook-id → when it is due, for the worker.
 * Every change runs in one write transaction with the reads it depends on (LMDB has one writer
 * at a time across processes); what must not be lost is on disk before the call resolves.
 */

import type { WatchState } from '../../watch/model.js';
import {
  DEFAULT_KEEP_DELIVERIES,
  isLive,
  newDelivery,
  refusalAt,
  watchAt,
  withChange,
} from '../../watch/rules.js';
import { type EnvironmentLease, useEnvironment } from '../lmdb-environment.js';
import { WatchDbs } from './lmdb-databases.js';
import { createLmdbDeliveries } from './lmdb-deliveries.js';
import type { WatchStateOptions } from './store.js';

export async function openLmdbWatchState(path: string, options: WatchStateOptions): Promise<WatchState> {
  const environment = await useEnvironment(path);
  try {
    const dbs = new WatchDbs(environment.root);
    const now = options.now ?? Date.now;
    await environment.root.transaction(() => dbs.sweep(now()));
    return lmdbWatchState(environment, dbs, path, options);
  } catch (error) {
    await environment.close();
    throw error;
  }
}

function lmdbWatchState(
  environment: EnvironmentLease,
  dbs: WatchDbs,
  path: string,
  options: WatchStateOptions,
): WatchState {
  const { root } = environment;
  const now = options.now ?? Date.now;
  const keep = options.keepDeliveries ?? DEFAULT_KEEP_DELIVERIES;
  let closing: Promise<void> | undefined;
  // Set once the worker has stopped: the attempt it was finishing is still written.
  let closed = false;
  const transact = async <T>(change: (at: number) => T, durable = false): Promise<T> => {
    if (closed) throw new Error(`watch state at ${path} is closed`);
    const result = await root.transaction(() => change(now()));
    if (durable) await root.flushed;
    return result;
  };
  const deliveries = createLmdbDeliveries(dbs, transact, options);

  return {
    // A read, not a write transaction: it answers every unpaid offer of POST /watch.
    room: async (subject) => {
      if (closed) throw new Error(`watch state at ${path} is closed`);
      return refusalAt(dbs.countLive(subject, now()), options);
    },
    create: (watch, how) =>
      transact((at) => {
        const kept = dbs.watches.get(watch.id);
        if (kept !== undefined) return watchAt(kept, at);
        const refusal = refusalAt(dbs.countActive(watch.subject, at), options, how?.paid);
        if (refusal !== null) return refusal;
        dbs.putWatch(watch);
        return watch;
      }, true),
    get: async (id) => {
      const watch = dbs.watches.get(id);
      return watch === undefined ? null : watchAt(watch, now());
    },
    cancel: (id) =>
      transact((at) => {
        const watch = dbs.watches.get(id);
        if (watch === undefined) return null;
        const current = watchAt(watch, at);
        if (current.status !== 'active') return current;
        return dbs.endWatch({ ...current, status: 'cancelled' });
      }, true),
    active: () => transact((at) => dbs.activeWatches(at)),
    recordChange: async (id, version, payload) => {
      const record = await transact((at) => {
        const watch = dbs.watches.get(id);
        if (watch === undefined || watch.version !== version || !isLive(watch, at)) return null;
        const delivery = newDelivery(watch, at);
        dbs.putWatch(withChange(watch, payload));
        dbs.addDelivery(delivery, JSON.stringify(payload), at, keep);
        return delivery;
      }, true);
      if (record !== null) deliveries.wake();
      return record;
    },
    deliveries: async (id, limit) => dbs.deliveriesOf(id, limit),
    check: async () => {
      if (closing !== undefined) throw new Error(`watch state at ${path} is closed`);
      root.getStats();
    },
    close: () => {
      closing ??= deliveries.close().then(async () => {
        closed = true;
        await environment.close();
      });
      return closing;
    },
  };
}
