/**
 * The embedded watch state's databases and the reads and writes on them. Every method that
 * writes is called inside a write transaction of the environment, with the reads it relies on.
 */
import type { RootDatabase } from 'lmdb';
import type { DeliveryRecord, Watch } from '../model.js';
import { type AttemptResult, ENDED_RETENTION_MS, type StoredDelivery } from './rules.js';

interface ActiveEntry {
  readonly subject: string;
  readonly expiresAt: number;
}

interface PendingEntry {
  /** When the next attempt is due, ms since the epoch. */
  readonly due: number;
  /** A worker is sending it until then (another worker, or this one after a crash, waits). */
  readonly leaseUntil: number;
}

export interface DueDelivery extends StoredDelivery {
  readonly watch: Watch | null;
}

export type WatchDbs = ReturnType<typeof lmdbDatabases>;

export function lmdbDatabases(root: RootDatabase) {
  const watches = root.openDB<Watch, string>({ name: 'watches', encoding: 'json' });
  const active = root.openDB<ActiveEntry, string>({ name: 'watch-active', encoding: 'json' });
  const logs = root.openDB<string[], string>({ name: 'watch-log', encoding: 'json' });
  const deliveries = root.openDB<StoredDelivery, string>({ name: 'watch-deliveries', encoding: 'json' });
  const pending = root.openDB<PendingEntry, string>({ name: 'watch-pending', encoding: 'json' });

  const endWatch = (watch: Watch, _at: number): Watch => {
    watches.put(watch.id, watch);
    active.remove(watch.id);
    return watch;
  };
  /** Active entries past their expiry stop counting; their watches become `expired`. */
  const expireActive = (at: number): ActiveEntry[] => {
    const live: ActiveEntry[] = [];
    for (const { key, value } of Array.from(active.getRange({}))) {
      if (value.expiresAt > at) {
        live.push(value);
        continue;
      }
      const watch = watches.get(key);
      if (watch?.status === 'active') endWatch({ ...watch, status: 'expired' }, at);
      else active.remove(key);
    }
    return live;
  };
  const forget = (watchId: string) => {
    for (const webhookId of logs.get(watchId) ?? []) {
      deliveries.remove(webhookId);
      pending.remove(webhookId);
    }
    logs.remove(watchId);
    watches.remove(watchId);
  };

  return {
    watches,
    putWatch(watch: Watch): void {
      watches.put(watch.id, watch);
      if (watch.status === 'active')
        active.put(watch.id, { subject: watch.subject, expiresAt: watch.expiresAt });
    },
    endWatch,
    countActive(subject: string, at: number): { total: number; subject: number } {
      const live = expireActive(at);
      return { total: live.length, subject: live.filter((entry) => entry.subject === subject).length };
    },
    activeWatches(at: number): Watch[] {
      expireActive(at);
      return Array.from(active.getKeys({})).flatMap((id) => watches.get(id) ?? []);
    },
    /** Queues a new delivery, due now, and trims the watch's log to `keep` (never a pending one). */
    addDelivery(record: DeliveryRecord, body: string, at: number, keep: number): void {
      deliveries.put(record.webhookId, { record, body });
      pending.put(record.webhookId, { due: at, leaseUntil: 0 });
      const log = [record.webhookId, ...(logs.get(record.watchId) ?? [])];
      for (let i = log.length - 1; i >= 0 && log.length > keep; i--) {
        const id = log[i] as string;
        if (pending.get(id) !== undefined) continue;
        deliveries.remove(id);
        log.splice(i, 1);
      }
      logs.put(record.watchId, log);
    },
    deliveriesOf(watchId: string, limit: number): DeliveryRecord[] {
      const ids = (logs.get(watchId) ?? []).slice(0, Math.max(0, limit));
      return ids.flatMap((id) => deliveries.get(id)?.record ?? []);
    },
    /** Takes up to `limit` deliveries due at `at` for `leaseMs`, with what sending them needs. */
    takeDue(at: number, leaseMs: number, limit: number): DueDelivery[] {
      const taken: DueDelivery[] = [];
      for (const { key, value } of pending.getRange({})) {
        if (taken.length >= limit) break;
        if (value.due > at || value.leaseUntil > at) continue;
        const stored = deliveries.get(key);
        if (stored === undefined) continue;
        taken.push({ ...stored, watch: watches.get(stored.record.watchId) ?? null });
      }
      for (const due of taken) pending.put(due.record.webhookId, { due: at, leaseUntil: at + leaseMs });
      return taken;
    },
    /** Writes an attempt's outcome: due again at `retryAt`, or no longer pending. */
    finish(body: string, result: AttemptResult): void {
      const { webhookId } = result.record;
      if (deliveries.get(webhookId) === undefined) return; // forgotten with its watch meanwhile
      deliveries.put(webhookId, { record: result.record, body });
      if (result.retryAt === null) pending.remove(webhookId);
      else pending.put(webhookId, { due: result.retryAt, leaseUntil: 0 });
    },
    /** Expires what is past its expiry and forgets watches ended longer than the retention ago. */
    sweep(at: number): void {
      expireActive(at);
      for (const { key, value } of Array.from(watches.getRange({}))) {
        if (value.status !== 'active' && value.expiresAt + ENDED_RETENTION_MS <= at) forget(key);
      }
    },
  };
}
