/**
 * WatchState in this process's memory (the memory state, STATE_IN_MEMORY): what the LMDB and
 * Redis states keep, kept in maps, and lost when the process ends. One process only, so it
 * announces nothing (no `watchesChanged`). Every change runs in one synchronous step, which no
 * other call can interleave with; a worker in this process sends the deliveries due.
 */
import { errorMessage } from '../../errors.js';
import { startPollWorker } from '../../watch/delivery/poll-worker.js';
import { createSender } from '../../watch/delivery/sender.js';
import type { AlertPayload, DeliveryRecord, Watch, WatchState } from '../../watch/model.js';
import {
  type AttemptResult,
  DEFAULT_KEEP_DELIVERIES,
  ENDED_RETENTION_MS,
  isLive,
  newDelivery,
  refusalAt,
  type StoredDelivery,
  trimmedLog,
  watchAt,
  withChange,
} from '../../watch/rules.js';
import type { WatchStateOptions } from './store.js';

/** Deliveries sent at once by one pass. */
const BATCH = 16;
/** How often ended watches past their retention are forgotten. */
const SWEEP_EVERY_MS = 3_600_000;

/** The maps, and the steps on them; each step runs whole, with the reads it relies on. */
class WatchMaps {
  readonly watches = new Map<string, Watch>();
  /** The ids of the watches that count against the caps (active, maybe past their expiry). */
  private readonly active = new Set<string>();
  /** Each watch's deliveries' webhook-ids, newest first. */
  private readonly logs = new Map<string, string[]>();
  private readonly deliveries = new Map<string, StoredDelivery>();
  /** webhook-id → when its next attempt is due. */
  private readonly pending = new Map<string, number>();

  constructor(private readonly keep: number) {}

  put(watch: Watch): Watch {
    this.watches.set(watch.id, watch);
    if (watch.status === 'active') this.active.add(watch.id);
    else this.active.delete(watch.id);
    return watch;
  }

  /** The active watches unexpired at `at`; those past their expiry are ended. */
  live(at: number): Watch[] {
    const live: Watch[] = [];
    for (const id of this.active) {
      const watch = watchAt(this.watches.get(id) as Watch, at);
      if (watch.status === 'active') live.push(watch);
      else this.put(watch);
    }
    return live;
  }

  counts(subject: string, at: number): { total: number; subject: number } {
    const live = this.live(at);
    return { total: live.length, subject: live.filter((w) => w.subject === subject).length };
  }

  /** Queues `record`, due now, and trims the watch's log to `keep` (never a pending delivery). */
  addDelivery(record: DeliveryRecord, body: string, at: number): void {
    this.deliveries.set(record.webhookId, { record, body });
    this.pending.set(record.webhookId, at);
    const old = this.logs.get(record.watchId) ?? [];
    const { log, dropped } = trimmedLog(old, record.webhookId, this.keep, (id) => this.pending.has(id));
    for (const id of dropped) this.deliveries.delete(id);
    this.logs.set(record.watchId, log);
  }

  deliveriesOf(watchId: string, limit: number): DeliveryRecord[] {
    const ids = (this.logs.get(watchId) ?? []).slice(0, Math.max(0, limit));
    return ids.flatMap((id) => this.deliveries.get(id)?.record ?? []);
  }

  /** Up to `limit` deliveries due at `at`, with their watches. */
  due(at: number, limit: number): (StoredDelivery & { watch: Watch | null })[] {
    const due: (StoredDelivery & { watch: Watch | null })[] = [];
    for (const [webhookId, when] of this.pending) {
      if (due.length >= limit) break;
      const stored = this.deliveries.get(webhookId);
      if (when > at || stored === undefined) continue;
      due.push({ ...stored, watch: this.watches.get(stored.record.watchId) ?? null });
    }
    return due;
  }

  /** An attempt's outcome: due again at `retryAt`, or no longer pending. */
  finish(body: string, result: AttemptResult): void {
    const { webhookId } = result.record;
    if (!this.deliveries.has(webhookId)) return; // forgotten with its watch meanwhile
    this.deliveries.set(webhookId, { record: result.record, body });
    if (result.retryAt === null) this.pending.delete(webhookId);
    else this.pending.set(webhookId, result.retryAt);
  }

  /** Forgets the watches ended longer than the retention ago, with their deliveries. */
  sweep(at: number): void {
    this.live(at);
    for (const [id, watch] of this.watches) {
      if (watch.status === 'active' || watch.expiresAt + ENDED_RETENTION_MS > at) continue;
      for (const webhookId of this.logs.get(id) ?? []) {
        this.deliveries.delete(webhookId);
        this.pending.delete(webhookId);
      }
      this.logs.delete(id);
      this.watches.delete(id);
    }
  }
}

export function createMemoryWatchState(options: WatchStateOptions): WatchState {
  const now = options.now ?? Date.now;
  const maps = new WatchMaps(options.keepDeliveries ?? DEFAULT_KEEP_DELIVERIES);
  const worker = startMemoryDeliveries(maps, options);
  let closing: Promise<void> | undefined;
  return {
    room: async (subject) => refusalAt(maps.counts(subject, now()), options),
    create: async (watch, how) => {
      const at = now();
      const kept = maps.watches.get(watch.id);
      if (kept !== undefined) return watchAt(kept, at);
      const refusal = refusalAt(maps.counts(watch.subject, at), options, how?.paid);
      return refusal ?? maps.put(watch);
    },
    get: async (id) => {
      const watch = maps.watches.get(id);
      return watch === undefined ? null : watchAt(watch, now());
    },
    cancel: async (id) => {
      const watch = maps.watches.get(id);
      if (watch === undefined) return null;
      const current = watchAt(watch, now());
      return maps.put(current.status === 'active' ? { ...current, status: 'cancelled' } : current);
    },
    active: async () => maps.live(now()),
    recordChange: async (id, version, payload) => {
      const record = recordChange(maps, now(), id, version, payload);
      if (record !== null) worker.wake();
      return record;
    },
    deliveries: async (id, limit) => maps.deliveriesOf(id, limit),
    check: async () => {
      if (closing !== undefined) throw new Error('the watch state in memory is closed');
    },
    close: () => {
      closing ??= worker.close();
      return closing;
    },
  };
}

function recordChange(
  maps: WatchMaps,
  at: number,
  id: string,
  version: number,
  payload: AlertPayload,
): DeliveryRecord | null {
  const watch = maps.watches.get(id);
  if (watch === undefined || watch.version !== version || !isLive(watch, at)) return null;
  const delivery = newDelivery(watch, at);
  maps.put(withChange(watch, payload));
  maps.addDelivery(delivery, JSON.stringify(payload), at);
  return delivery;
}

/** The worker: takes the deliveries due, sends them, writes each outcome. One pass at a time. */
function startMemoryDeliveries(maps: WatchMaps, options: WatchStateOptions) {
  const now = options.now ?? Date.now;
  const sender = createSender(options);
  let lastSweep = now();
  const pass = async (): Promise<boolean> => {
    if (now() - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = now();
      maps.sweep(lastSweep);
    }
    const due = maps.due(now(), BATCH);
    await Promise.all(
      due.map(async (delivery) => maps.finish(delivery.body, await sender.send(delivery, delivery.watch))),
    );
    return due.length === BATCH;
  };
  return startPollWorker(pass, options.pollMs ?? 1_000, (e) =>
    options.log?.warn({ err: errorMessage(e) }, 'watch delivery pass failed; retrying at the next poll'),
  );
}
