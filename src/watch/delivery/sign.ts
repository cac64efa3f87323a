/**
 * A delivery's Standard Webhooks headers (https://www.standardwebhooks.com): `webhook-id`, the
 * same on every retry of one delivery; `webhook-timestamp`, the attempt's time in seconds; and
 * `webhook-signature` carrying two signatures of `${id}.${timestamp}.${body}`, space separated:
 *   - `v1,<base64 HMAC-SHA256>` with the watch's own secret (`whsec_…`), made by the
 *     `standardwebhooks` package, which verifies it as is;
 *   - `v1a,<base64 Ed25519>` with the service's key, whose public half is the JWKS at
 *     /.well-known/jwks.json: anyone can verify it without a shared secret.
 * `standardwebhooks` 1.1.1 signs and verifies `v1` only (its verify skips any other version), so
 * `v1a` is made here with node:crypto and checked by src/client/webhook-verify.ts.
 */
import { createHash, sign } from 'node:crypto';
import { signedContent } from '@solana-risk-scan/client/webhook';
import { Webhook } from 'standardwebhooks';
import type { SigningKey } from '../../signing/key.js';

export type SignedHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

/**
 * The webhook-id of the change that brings a watch to `version`: derived, not random, so two
 * instances that both record one change name its delivery alike (and a queue drops the second).
 */
export function webhookIdFor(watchId: string, version: number): string {
  const digest = createHash('sha256').update(`${watchId}:${version}`).digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}

export interface SignInput {
  readonly webhookId: string;
  /** The attempt's time, ms since the epoch (sent in seconds). */
  readonly at: number;
  readonly body: string;
  /** The watch's `whsec_…` secret. */
  readonly secret: string;
  readonly key: SigningKey;
}

export function signDelivery(input: SignInput): SignedHeaders {
  const seconds = Math.floor(input.at / 1000);
  const v1 = new Webhook(input.secret).sign(input.webhookId, new Date(seconds * 1000), input.body);
  const content = signedContent(input.webhookId, seconds, input.body);
  const v1a = `v1a,${sign(null, content, input.key.privateKey).toString('base64')}`;
  return {
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': `${v1} ${v1a}`,
  };
}
