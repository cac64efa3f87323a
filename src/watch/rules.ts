/**
 * What every WatchState implementation (src/state/watches/) decides alike: when a watch counts as expired, what a
 * recorded change makes of it, and what one attempt makes of a delivery (delivered, retried
 * later, or failed once the watch is over). Pure functions of their inputs and the time.
 */

import type { Outgoing } from './delivery/deliverer.js';
import { isDelivered } from './delivery/deliverer.js';
import type { RetrySchedule } from './delivery/schedule.js';
import { webhookIdFor } from './delivery/sign.js';
import type { AlertPayload, DeliveryAttempt, DeliveryRecord, Watch, WatchRefusal } from './model.js';

export const DEFAULT_KEEP_DELIVERIES = 50;
/** An ended watch (expired, cancelled) and its log are kept this long for GET /watch/{id}. */
export const ENDED_RETENTION_MS = 7 * 24 * 3_600_000;

/** How many active watches a service takes: in all, and on one subject (MAX_WATCHES…). */
export interface WatchCaps {
  readonly maxWatches: number;
  readonly maxWatchesPerSubject: number;
}

/** The active, unexpired watches a new one on some subject would join: in all, and on its subject. */
export interface ActiveCounts {
  readonly total: number;
  readonly subject: number;
}

/**
 * Whether a new watch is taken beside `counts`: null, or why not (the service's cap is named
 * before the subject's). A `paid` one is always taken: the caps are admission, asked before
 * payment, and a settled payment's watch is never lost to others that filled the room meanwhile.
 */
export function refusalAt(counts: ActiveCounts, caps: WatchCaps, paid = false): WatchRefusal | null {
  if (paid) return null;
  if (counts.total >= caps.maxWatches) return 'service_full';
  if (counts.subject >= caps.maxWatchesPerSubject) return 'subject_full';
  return null;
}

/** The watch as it stands at `at`: an active one past its expiry is `expired`. */
export function watchAt(watch: Watch, at: number): Watch {
  return watch.status === 'active' && watch.expiresAt <= at ? { ...watch, status: 'expired' } : watch;
}

export const isLive = (watch: Watch, at: number): boolean => watchAt(watch, at).status === 'active';

/** The watch once `payload` is recorded against it: its new baseline, one version on. */
export function withChange(watch: Watch, payload: AlertPayload): Watch {
  return { ...watch, latest: payload.after, version: watch.version + 1 };
}

/** The delivery a change recorded against `watch` (at its current version) queues. */
export function newDelivery(watch: Watch, at: number): DeliveryRecord {
  return {
    webhookId: webhookIdFor(watch.id, watch.version + 1),
    watchId: watch.id,
    createdAt: at,
    state: 'pending',
    attempts: [],
  };
}

export function outgoingOf(watch: Watch, record: DeliveryRecord, body: string): Outgoing {
  return { webhookId: record.webhookId, webhook: watch.webhook, secret: watch.secret, body };
}

/**
 * A watch's log (webhook-ids, newest first) with `newest` put first, cut to `keep` entries from
 * the oldest end, passing over those still pending (a pending delivery is never forgotten);
 * with the ids cut, whose records are to be removed.
 */
export function trimmedLog(
  log: readonly string[],
  newest: string,
  keep: number,
  isPending: (webhookId: string) => boolean,
): { readonly log: string[]; readonly dropped: string[] } {
  const kept = [newest, ...log];
  const dropped: string[] = [];
  for (let i = kept.length - 1; i >= 0 && kept.length > keep; i--) {
    const id = kept[i] as string;
    if (isPending(id)) continue;
    dropped.push(id);
    kept.splice(i, 1);
  }
  return { log: kept, dropped };
}

/** A delivery as kept until it is delivered or failed, with the body each attempt sends. */
export interface StoredDelivery {
  readonly record: DeliveryRecord;
  /** The JSON of its AlertPayload, sent as is on every attempt. */
  readonly body: string;
}

export interface AttemptResult {
  readonly record: DeliveryRecord;
  /** When to try again; null once the delivery is delivered or failed. */
  readonly retryAt: number | null;
}

/**
 * The delivery after `attempt`: delivered on a 2xx; else retried after the schedule's wait, or
 * failed when the watch is over (cancelled or expired) by then.
 */
export function afterAttempt(
  record: DeliveryRecord,
  attempt: DeliveryAttempt,
  watch: Watch | null,
  retry: RetrySchedule,
): AttemptResult {
  const attempts = [...record.attempts, attempt];
  if (isDelivered(attempt)) return { record: { ...record, attempts, state: 'delivered' }, retryAt: null };
  const retryAt = attempt.at + retry(attempts.length);
  if (watch === null || !isLive(watch, retryAt)) {
    return { record: { ...record, attempts, state: 'failed' }, retryAt: null };
  }
  return { record: { ...record, attempts }, retryAt };
}

/** A delivery whose watch is over before its next attempt: failed without contacting anyone. */
export function abandoned(record: DeliveryRecord): DeliveryRecord {
  return { ...record, state: 'failed' };
}
