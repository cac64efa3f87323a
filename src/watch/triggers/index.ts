/** Re-assessing active watches: account subscriptions, a bounded periodic re-scan, change detection. */
export {
  type AccountFeed,
  type AccountFeedEvents,
  type AccountFeedOptions,
  createAccountFeed,
  defaultBackoffMs,
} from './account-feed.js';
export { alertPayload, SCORE_EPSILON, verdictChange } from './change.js';
export { followedAccounts } from './followed.js';
export { type FreshScanOptions, freshScan } from './fresh-scan.js';
export type { RescanReason, TriggerMetrics } from './metrics.js';
export { type FreshScan, WatchTriggers, type WatchTriggersOptions } from './triggers.js';
