/**
 * One attempt at one delivery: the webhook is checked again (against DNS rebinding, and so a
 * webhook that now resolves to a private address is never contacted), signed afresh with the
 * attempt's time, and posted. Never throws: every outcome is an attempt for the delivery log.
 */
import { errorMessage } from '../../errors.js';
import type { SigningKey } from '../../signing/key.js';
import type { DeliveryAttempt } from '../model.js';
import { checkWebhook, type ResolveHost, type WebhookMode } from '../webhook-url.js';
import { type PostLimits, postWebhook } from './post.js';
import { signDelivery } from './sign.js';

export interface DelivererOptions {
  readonly mode: WebhookMode;
  readonly signingKey: SigningKey;
  readonly resolve?: ResolveHost | undefined;
  readonly limits?: Partial<PostLimits>;
  readonly now?: () => number;
}

/** What a delivery needs to be sent, as kept with it. */
export interface Outgoing {
  readonly webhookId: string;
  readonly webhook: string;
  /** The watch's `whsec_…` secret. */
  readonly secret: string;
  /** The JSON of the AlertPayload, sent as is on every attempt. */
  readonly body: string;
}

export type Deliver = (outgoing: Outgoing) => Promise<DeliveryAttempt>;

/** The error an attempt refused by the SSRF guard is logged with starts with this. */
export const REFUSED_PREFIX = 'refused:';

export const DEFAULT_POST_LIMITS: PostLimits = { timeoutMs: 10_000, maxResponseBytes: 4_096 };

export function createDeliverer(options: DelivererOptions): Deliver {
  const now = options.now ?? Date.now;
  const limits = { ...DEFAULT_POST_LIMITS, ...options.limits };
  return async (outgoing) => {
    const at = now();
    try {
      const checked = await checkWebhook(outgoing.webhook, { mode: options.mode, resolve: options.resolve });
      if (!checked.ok) return { at, status: null, error: `${REFUSED_PREFIX} ${checked.reason}` };
      const headers = signDelivery({ ...outgoing, at, key: options.signingKey });
      const outcome = await postWebhook(checked, headers, outgoing.body, limits);
      return { at, ...outcome };
    } catch (e) {
      return { at, status: null, error: errorMessage(e) };
    }
  };
}

export const isDelivered = (attempt: DeliveryAttempt): boolean =>
  attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
