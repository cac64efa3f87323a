/** What the triggers count, for the operator's metrics (which implement it). */
import type { WatchKind } from '../model.js';

export type RescanReason = 'notification' | 'periodic';

export interface TriggerMetrics {
  /** Account subscriptions open now (one per account, however many watches follow it). */
  subscriptionsOpen(open: number): void;
  /** An account change notified by the RPC. */
  notification(): void;
  rescan(kind: WatchKind, reason: RescanReason, outcome: 'ok' | 'failed'): void;
  /** A change reported for one watch. */
  change(kind: WatchKind): void;
}
