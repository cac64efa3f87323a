/**
 * The 200 answer of POST /watch: what the payer needs to keep (the watch's id, the only key to
 * read or cancel it), what it bought (subject, webhook, expiry), the baseline verdict alerts are
 * compared with, and how every delivery is signed. It is the stored, signed body of the paid call,
 * so a replay of the payment gives it again byte for byte, and the watch is rebuilt from it.
 */
import { type WatchCreated, WatchCreatedSchema } from '../../contract/watch-created.js';
import type { Watch } from '../model.js';

/** The signing facts of every watch of this service. */
export interface SigningFacts {
  readonly jwksUrl: string;
  readonly keyId: string;
}

/** The answer for a new watch (its Watch as the state keeps it). */
export function watchAnswer(watch: Watch, signing: SigningFacts): WatchCreated {
  return {
    watch_id: watch.id,
    kind: watch.kind,
    subject: watch.subject,
    webhook: watch.webhook,
    hours: watch.hours,
    created_at: new Date(watch.createdAt).toISOString(),
    expires_at: new Date(watch.expiresAt).toISOString(),
    baseline: watch.latest,
    signing: {
      standard: 'standard-webhooks',
      signatures: ['v1a', 'v1'],
      jwks_url: signing.jwksUrl,
      key_id: signing.keyId,
      secret: watch.secret,
    },
  };
}

/** The watch a stored answer describes, as it was the moment it was sold. */
export function watchOfAnswer(body: string): Watch {
  const answer = WatchCreatedSchema.parse(JSON.parse(body));
  return {
    id: answer.watch_id,
    kind: answer.kind,
    subject: answer.subject,
    webhook: answer.webhook,
    hours: answer.hours,
    createdAt: Date.parse(answer.created_at),
    expiresAt: Date.parse(answer.expires_at),
    status: 'active',
    secret: answer.signing.secret,
    latest: answer.baseline,
    version: 0,
  };
}
