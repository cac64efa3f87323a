/**
 * The 200 answer of POST /watch: what the payer needs to keep (the watch's id, the only key to
 * read or cancel it), what it bought (subject, webhook, expiry), the baseline verdict alerts are
 * compared with, and how every delivery is signed. It is the stored, signed body of the paid call,
 * so a replay of the payment gives it again byte for byte, and the watch is rebuilt from it.
 */
import { z } from '@hono/zod-openapi';
import { WATCH_KINDS } from '../../catalog.js';
import { ScanResultSchema } from '../../contract/schemas.js';
import type { Watch } from '../model.js';

export const WatchSigningSchema = z
  .object({
    standard: z.literal('standard-webhooks'),
    signatures: z.array(z.enum(['v1a', 'v1'])),
    jwks_url: z.string().meta({ description: 'Where the public key that verifies v1a is published.' }),
    key_id: z.string().meta({ description: 'The kid of that key in the JWKS.' }),
    secret: z.string().meta({
      description: "The watch's own whsec_ secret: the standardwebhooks package verifies v1 with it.",
    }),
  })
  .meta({
    description: 'How each delivery is signed: Standard Webhooks headers, v1a (Ed25519) and v1 (HMAC).',
  });

export const WatchCreatedSchema = z
  .object({
    watch_id: z.string().meta({ description: 'The watch id: the only key to read or cancel it. Keep it.' }),
    kind: z.enum(WATCH_KINDS),
    subject: z.string(),
    webhook: z.string(),
    hours: z.number().int(),
    created_at: z.string().meta({ description: 'ISO 8601.' }),
    expires_at: z.string().meta({ description: 'ISO 8601: no alert is sent after it.' }),
    baseline: ScanResultSchema,
    signing: WatchSigningSchema,
  })
  .meta({ description: 'The watch created, its baseline verdict and how its alerts are signed.' });

export type WatchCreated = z.infer<typeof WatchCreatedSchema>;

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
