/**
 * A watch: a paid promise to tell a webhook, for a number of hours, when a subject's verdict
 * changes. This file is the meeting point of the three parts of the feature, so each can be
 * built and tested on its own:
 *   - the paid door (`POST /watch`, `GET /watch/{id}`, cancel) creates and reads watches;
 *   - the triggers (subscriptions, periodic re-scan) re-assess active watches and report changes;
 *   - the state (`WatchState`, kept by src/state/watches/) keeps watches and their deliveries
 *     across restarts and instances, and delivers each change to its webhook, signed, at least once.
 */
import type { ScanResult } from '../contract/schemas.js';

import type { WatchKind, WatchOrder } from '../contract/watch-order.js';

// The order is the endpoint's wire format, kept with the contract; named here for the watch's modules.
export type { WatchKind, WatchOrder };

export type WatchStatus = 'active' | 'cancelled' | 'expired';

export interface Watch extends WatchOrder {
  /** Unguessable (128 bits or more): the only credential for reading or cancelling it. */
  readonly id: string;
  /** ms since the epoch. */
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly status: WatchStatus;
  /**
   * The watch's own Standard Webhooks secret (`whsec_…`), given once in the 200 answer: every
   * delivery carries a symmetric `v1` signature with it, which the `standardwebhooks` package
   * verifies as is, beside the `v1a` Ed25519 signature that anyone verifies with the published key.
   */
  readonly secret: string;
  /** The verdict the next assessment is compared with: the baseline, then each delivered change. */
  readonly latest: ScanResult;
  /** Bumped by every recorded change; a change is recorded only against the current version. */
  readonly version: number;
}

/** What changed between two verdicts of one subject. */
export interface VerdictChange {
  readonly scoreBefore: number;
  readonly scoreAfter: number;
  readonly flagsAdded: readonly string[];
  readonly flagsRemoved: readonly string[];
}

/** The JSON an alert carries to the webhook. */
export interface AlertPayload {
  readonly type: 'watch.changed';
  readonly watch_id: string;
  readonly kind: WatchKind;
  readonly subject: string;
  readonly changed: VerdictChange;
  readonly before: ScanResult;
  readonly after: ScanResult;
}

export interface DeliveryAttempt {
  /** ms since the epoch. */
  readonly at: number;
  /** The webhook's HTTP status; null when no answer came (refused, timed out, blocked address). */
  readonly status: number | null;
  readonly error?: string;
}

export interface DeliveryRecord {
  /** Standard Webhooks `webhook-id`: the same on every retry of this delivery. */
  readonly webhookId: string;
  readonly watchId: string;
  readonly createdAt: number;
  /** `failed`: given up (the watch expired or was cancelled before the webhook took it). */
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly DeliveryAttempt[];
}

/** Why a new watch cannot be taken now (said before payment). */
export type WatchRefusal = 'subject_full' | 'service_full';

export interface WatchState {
  /** Whether a watch on `subject` would be taken now: null, or why not. */
  room(subject: string): Promise<WatchRefusal | null>;
  /**
   * Keeps a new watch, once: a watch already kept under its id is given back as it is now, never
   * overwritten (a replayed payment must not revive a cancelled watch or rewind its version).
   * Refuses a new one when the caps were reached since `room` said yes — unless it is `paid`:
   * the caps are admission, asked before payment; a watch whose payment settled is kept even
   * if others filled the room during its settle call, as a paid result is never lost.
   */
  create(watch: Watch, options?: { readonly paid?: boolean }): Promise<Watch | WatchRefusal>;
  get(id: string): Promise<Watch | null>;
  /** Cancels an active watch (no refund); null when there is no such watch. */
  cancel(id: string): Promise<Watch | null>;
  /** Every active, unexpired watch (what the triggers follow). */
  active(): Promise<readonly Watch[]>;
  /**
   * Records `after` as the watch's verdict and queues its alert, if the watch is still active and
   * still at `version`: of two instances that saw the same change, one records it, the other gets
   * null. The alert is then delivered at least once, signed, whatever happens to this process.
   */
  recordChange(id: string, version: number, payload: AlertPayload): Promise<DeliveryRecord | null>;
  /** The watch's deliveries, newest first. */
  deliveries(id: string, limit: number): Promise<readonly DeliveryRecord[]>;
  /**
   * Shared states only: calls `listener` when a watch may have been created or cancelled through
   * another instance (the triggers then take the active watches again); returns how to stop.
   */
  watchesChanged?(listener: () => void): () => void;
  /** Whether the state can be used now (for /health); throws with the reason when not. */
  check(): Promise<void>;
  close(): Promise<void>;
}
