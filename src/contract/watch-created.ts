/**
 * The 200 answer of POST /watch, as the catalog names it for its response: the watch's id (the
 * only key to read or cancel it), what was bought, the baseline verdict and how every delivery is
 * signed. Built by src/watch/door/answer.ts.
 */
import { z } from '@hono/zod-openapi';
import { WATCH_KINDS } from '../terms/subjects.js';
import { ScanResultSchema } from './schemas.js';

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
