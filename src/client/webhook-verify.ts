/**
 * Verifies a watch alert as its receiver: the `v1a` (Ed25519) signature of a Standard Webhooks
 * delivery against the service's published key (the JWKS at /.well-known/jwks.json, one JWK of
 * it, or a PEM public key), and that its timestamp is recent. No shared secret is needed. The
 * symmetric `v1` signature beside it is checked with the `standardwebhooks` package and the
 * watch's `whsec_…` secret. Ed25519 verification compares no secret, so it leaks nothing by
 * its timing; the signature's bytes are never compared by hand.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** The members of a JWK this reads (an Ed25519 key is `kty: OKP`, `crv: Ed25519`). */
export interface PublicJwkLike {
  readonly kty?: string;
  readonly crv?: string;
  readonly x?: string;
}

/** A JWKS document, one JWK, a PEM public key, or a KeyObject. */
export type WebhookPublicKey =
  | { readonly keys: readonly PublicJwkLike[] }
  | PublicJwkLike
  | string
  | KeyObject;

export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, either way; default 5 minutes (as standardwebhooks). */
  readonly toleranceSeconds?: number;
  readonly now?: () => number;
}

function publicKeysOf(key: WebhookPublicKey): KeyObject[] {
  if (typeof key === 'string') return [createPublicKey(key)];
  if ('asymmetricKeyType' in key && typeof (key as KeyObject).export === 'function')
    return [key as KeyObject];
  const jwks = 'keys' in key && Array.isArray(key.keys) ? key.keys : [key as PublicJwkLike];
  return jwks
    .filter((jwk) => jwk.kty === 'OKP' && jwk.crv === 'Ed25519')
    .map((jwk) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x ?? '' }, format: 'jwk' }));
}

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text === '') throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

/** The `v1a` signatures of a `webhook-signature` header, decoded. */
function v1aSignatures(signatureHeader: string): Buffer[] {
  return signatureHeader
    .split(' ')
    .filter((part) => part.startsWith('v1a,'))
    .map((part) => Buffer.from(part.slice(4), 'base64'));
}

/**
 * Throws WebhookVerificationError unless `body` (the raw bytes received) carries a valid `v1a`
 * signature by `publicKey` with a timestamp within the tolerance; returns the parsed body.
 */
export function verifyWebhook(
  publicKey: WebhookPublicKey,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = v1aSignatures(header(headers, 'webhook-signature'));
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  }
  if (signatures.length === 0) throw new WebhookVerificationError('no v1a signature');
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), raw]);
  const keys = publicKeysOf(publicKey);
  if (keys.length === 0) throw new WebhookVerificationError('no Ed25519 key to verify with');
  const valid = signatures.some(
    (sig) => sig.length === 64 && keys.some((key) => verify(null, content, key, sig)),
  );
  if (!valid) throw new WebhookVerificationError('no v1a signature matches');
  return JSON.parse(raw.toString('utf8'));
}
