/**
 * The embedded watch state's databases and the reads and writes on them. Every method that
 * writes is called inside a write transaction of the environment, with the reads it relies on.
 */
import type { Database, RootDatabase } from 'lmdb';
import { errorMessage } from '../../errors.js';
import type { DeliveryRecord, Watch } from '../../watch/model.js';
import {
  type AttemptResult,
  ENDED_RETENTION_MS,
  type StoredDelivery,
  trimmedLog,
} from '../../watch/rules.js';
import { isUnreadable, storedDeliveryOf, type Unreadable } from './stored-delivery.js';

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

/** A pending delivery whose record could not be read, dropped by takeDue. */
export interface DroppedDelivery extends Unreadable {
  readonly webhookId: string;
}

const isPendingEntry = (value: unknown): value is PendingEntry =>
  typeof (value as PendingEntry | null)?.due === 'number' &&
  typeof (value as PendingEntry | null)?.leaseUntil === 'number';

/** The databases, opened in the environment `root`; writes are made inside its transactions. */
export class WatchDbs {
  readonly watches: Database<Watch, string>;
  private readonly active: Database<ActiveEntry, string>;
  private readonly logs: Database<string[], string>;
  private readonly deliveries: Database<StoredDelivery, string>;
  private readonly pending: Database<PendingEntry, string>;

  constructor(root: RootDatabase) {
    this.watches = root.openDB<Watch, string>({ name: 'watches', encoding: 'json' });
    this.active = root.openDB<ActiveEntry, string>({ name: 'watch-active', encoding: 'json' });
    this.logs = root.openDB<string[], string>({ name: 'watch-log', encoding: 'json' });
    this.deliveries = root.openDB<StoredDelivery, string>({ name: 'watch-deliveries', encoding: 'json' });
    this.pending = root.openDB<PendingEntry, string>({ name: 'watch-pending', encoding: 'json' });
  }

  putWatch(watch: Watch): void {
    this.watches.put(watch.id, watch);
    if (watch.status === 'active') {
      this.active.put(watch.id, { subject: watch.subject, expiresAt: watch.expiresAt });
    }
  }

  /** Keeps a watch that no longer counts (cancelled, expired). */
  endWatch(watch: Watch): Watch {
    this.watches.put(watch.id, watch);
    this.active.remove(watch.id);
    return watch;
  }

  /** The unexpired active watches, in all and on `subject`; those past expiry are ended (a write). */
  countActive(subject: string, at: number): { total: number; subject: number } {
    const live = this.expireActive(at);
    return { total: live.length, subject: live.filter((entry) => entry.subject === subject).length };
  }

  /** As countActive, without writing: what has expired is only not counted. */
  countLive(subject: string, at: number): { total: number; subject: number } {
    let total = 0;
    let ofSubject = 0;
    for (const { value } of this.active.getRange({})) {
      if (value.expiresAt <= at) continue;
      total++;
      if (value.subject === subject) ofSubject++;
    }
    return { total, subject: ofSubject };
  }

  activeWatches(at: number): Watch[] {
    this.expireActive(at);
    return Array.from(this.active.getKeys({})).flatMap((id) => this.watches.get(id) ?? []);
  }

  /** Queues a new delivery, due now, and trims the watch's log to `keep` (never a pending one). */
  addDelivery(record: DeliveryRecord, body: string, at: number, keep: number): void {
    this.deliveries.put(record.webhookId, { record, body });
    this.pending.put(record.webhookId, { due: at, leaseUntil: 0 });
    const old = this.logs.get(record.watchId) ?? [];
    const { log, dropped } = trimmedLog(
      old,
      record.webhookId,
      keep,
      (id) => this.pending.get(id) !== undefined,
    );
    for (const id of dropped) this.deliveries.remove(id);
    this.logs.put(record.watchId, log);
  }

  /** The log's deliveries; one whose record cannot be read is passed over. */
  deliveriesOf(watchId: string, limit: number): DeliveryRecord[] {
    const ids = (this.logs.get(watchId) ?? []).slice(0, Math.max(0, limit));
    return ids.flatMap((id) => {
      const stored = this.readDelivery(id);
      return stored === undefined || isUnreadable(stored) ? [] : [stored.record];
    });
  }

  /**
   * Takes up to `limit` deliveries due at `at` for `leaseMs`, with what sending them needs. A
   * pending delivery whose record cannot be read is dropped (so it cannot stop the others at
   * every pass) and returned in `dropped`, for the log.
   */
  takeDue(at: number, leaseMs: number, limit: number): { taken: DueDelivery[]; dropped: DroppedDelivery[] } {
    const taken: DueDelivery[] = [];
    const dropped: DroppedDelivery[] = [];
    for (const key of Array.from(this.pending.getKeys({}))) {
      if (taken.length >= limit) break;
      const entry = this.readPending(key);
      if (entry !== null && (entry.due > at || entry.leaseUntil > at)) continue;
      const stored =
        entry === null ? { unreadable: 'its pending entry cannot be read' } : this.readDelivery(key);
      if (stored === undefined) continue;
      if (isUnreadable(stored)) dropped.push(this.drop(key, stored));
      else taken.push({ ...stored, watch: this.watches.get(stored.record.watchId) ?? null });
    }
    for (const due of taken) this.pending.put(due.record.webhookId, { due: at, leaseUntil: at + leaseMs });
    return { taken, dropped };
  }

  /** The stored delivery, undefined when there is none, or why it cannot be read. */
  private readDelivery(webhookId: string): StoredDelivery | Unreadable | undefined {
    let value: unknown;
    try {
      value = this.deliveries.get(webhookId);
    } catch (e) {
      return { unreadable: `not JSON: ${errorMessage(e)}` };
    }
    return value === undefined ? undefined : storedDeliveryOf(value);
  }

  /** The pending entry, or null when it cannot be read. */
  private readPending(webhookId: string): PendingEntry | null {
    try {
      const value: unknown = this.pending.get(webhookId);
      return isPendingEntry(value) ? value : null;
    } catch {
      return null;
    }
  }

  private drop(webhookId: string, why: Unreadable): DroppedDelivery {
    this.pending.remove(webhookId);
    this.deliveries.remove(webhookId);
    return { webhookId, ...why };
  }

  /** Writes an attempt's outcome: due again at `retryAt`, or no longer pending. */
  finish(body: string, result: AttemptResult): void {
    const { webhookId } = result.record;
    if (this.deliveries.get(webhookId) === undefined) return; // forgotten with its watch meanwhile
    this.deliveries.put(webhookId, { record: result.record, body });
    if (result.retryAt === null) this.pending.remove(webhookId);
    else this.pending.put(webhookId, { due: result.retryAt, leaseUntil: 0 });
  }

  /** Expires what is past its expiry and forgets watches ended longer than the retention ago. */
  sweep(at: number): void {
    this.expireActive(at);
    for (const { key, value } of Array.from(this.watches.getRange({}))) {
      if (value.status !== 'active' && value.expiresAt + ENDED_RETENTION_MS <= at) this.forget(key);
    }
  }

  /** Active entries past their expiry stop counting; their watches become `expired`. */
  private expireActive(at: number): ActiveEntry[] {
    const live: ActiveEntry[] = [];
    for (const { key, value } of Array.from(this.active.getRange({}))) {
      if (value.expiresAt > at) {
        live.push(value);
        continue;
      }
      const watch = this.watches.get(key);
      if (watch?.status === 'active') this.endWatch({ ...watch, status: 'expired' });
      else this.active.remove(key);
    }
    return live;
  }

  private forget(watchId: string): void {
    for (const webhookId of this.logs.get(watchId) ?? []) {
      this.deliveries.remove(webhookId);
      this.pending.remove(webhookId);
    }
    this.logs.remove(watchId);
    this.watches.remove(watchId);
  }
}
