/**
 * A watch: a paid promise to tell a webhook, for a number of hours, when a subject's verdict
 * changes. This file is the meeting point of the three parts of the feature, so each can be
 * built and tested on its own:
 *   - the paid door (`POST /watch`, `GET /watch/{id}`, cancel) creates and reads watches;
 *   - the triggers (subscriptions, periodic re-scan) re-assess active watches and report changes;
 *   - the state (`WatchState`, in src/state/watches/) keeps watches and their deliveries across
 *     restarts and instances, and delivers each change to its webhook, signed, at least once.
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
