/**
 * What every watch state's worker does with one due delivery: send it if its watch is still live
 * (else it fails without contacting anyone), and say what it becomes. Never throws for the
 * webhook's sake: a failing webhook is an attempt in the log, nothing more.
 */

import type { SigningKey } from '../../signing/key.js';
import type { Watch } from '../model.js';
import {
  type AttemptResult,
  abandoned,
  afterAttempt,
  isLive,
  outgoingOf,
  type StoredDelivery,
} from '../rules.js';
import type { ResolveHost, WebhookMode } from '../webhook-url.js';
import { createDeliverer, DEFAULT_POST_LIMITS } from './deliverer.js';
import type { PostLimits } from './post.js';
import { exponentialBackoff, type RetrySchedule } from './schedule.js';

/** How deliveries are sent: signed with `signingKey`, to webhooks the SSRF guard of `mode` lets through. */
export interface SenderOptions {
  readonly mode: WebhookMode;
  readonly signingKey: SigningKey;
  readonly resolve?: ResolveHost;
  readonly retry?: RetrySchedule;
  readonly postLimits?: Partial<PostLimits>;
  readonly now?: () => number;
}

export interface Sender {
  readonly limits: PostLimits;
  readonly retry: RetrySchedule;
  send(stored: StoredDelivery, watch: Watch | null): Promise<AttemptResult>;
}

export function createSender(options: SenderOptions): Sender {
  const now = options.now ?? Date.now;
  const retry = options.retry ?? exponentialBackoff();
  const limits = { ...DEFAULT_POST_LIMITS, ...options.postLimits };
  const deliver = createDeliverer({
    mode: options.mode,
    signingKey: options.signingKey,
    resolve: options.resolve,
    limits,
    now,
  });
  return {
    limits,
    retry,
    send: async (stored, watch) => {
      if (watch === null || !isLive(watch, now())) return { record: abandoned(stored.record), retryAt: null };
      // The deliverer turns every failure into an attempt (it never throws): nothing to catch here.
      const attempt = await deliver(outgoingOf(watch, stored.record, stored.body));
      return afterAttempt(stored.record, attempt, watch, retry);
    },
  };
}
