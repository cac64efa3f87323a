/**
 * Verifies a watch alert as its receiver: the `v1a` (Ed25519) signature of a Standard Webhooks
 * delivery against the service's published key (the JWKS at /.well-known/jwks.json, one JWK of
 * it, or a PEM public key), and that its timestamp is recent. No shared secret is needed. The
 * symmetric `v1` signature beside it is checked with the `standardwebhooks` package and the
 * watch's `whsec_…` secret. Ed25519 verification compares no secret, so it leaks nothing by
 * its timing; the signature's bytes are never compared by hand.
 *
 * Every refusal, whatever the bad input, is a WebhookVerificationError with its `reason`.
 */
import { createPublicKey, KeyObject, verify } from 'node:crypto';
import { signedContent } from './signed-content.js';

/**
 * Why a delivery was not verified:
 *   - `bad_key`: the key given cannot be read (not a JWKS, JWK, PEM or KeyObject; a malformed JWK or PEM);
 *   - `wrong_key_type`: it holds no Ed25519 key (an RSA or EC key, an empty key set);
 *   - `missing_header`: `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty;
 *   - `bad_timestamp`: `webhook-timestamp` is not a time in seconds;
 *   - `stale_timestamp`: it is further from now than the tolerance (an old or replayed delivery);
 *   - `no_v1a_signature`: `webhook-signature` carries no `v1a` signature;
 *   - `signature_mismatch`: no `v1a` signature is the key's over these headers and body;
 *   - `bad_payload`: the body is not the raw bytes received, or not JSON (it is then signed, but no alert).
 */
export type WebhookVerificationReason =
  | 'bad_key'
  | 'wrong_key_type'
  | 'missing_header'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'no_v1a_signature'
  | 'signature_mismatch'
  | 'bad_payload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
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

const refuse = (reason: WebhookVerificationReason, message: string, cause?: unknown): never => {
  throw new WebhookVerificationError(reason, message, cause === undefined ? undefined : { cause });
};

/** Reads `read()`'s key; a key that cannot be read is `bad_key`. */
function readKey(what: string, read: () => KeyObject): KeyObject {
  try {
    return read();
  } catch (e) {
    return refuse('bad_key', `${what} cannot be read as a public key`, e);
  }
}

function ed25519Only(keys: readonly KeyObject[]): KeyObject[] {
  const ed25519 = keys.filter((key) => key.asymmetricKeyType === 'ed25519');
  if (ed25519.length === 0) refuse('wrong_key_type', 'no Ed25519 key to verify with');
  return ed25519;
}

/** A KeyObject's public half: a secret key cannot verify a signature, a private one can give its public key. */
function publicOf(key: KeyObject): KeyObject {
  if (key.type === 'secret') refuse('wrong_key_type', 'a secret key cannot verify v1a; give the public key');
  return key.type === 'public' ? key : readKey('the KeyObject', () => createPublicKey(key));
}

/** The Ed25519 keys of a JWKS or of one JWK; keys of other types are passed over. */
function jwkKeys(key: object): KeyObject[] {
  const set: unknown = 'keys' in key ? key.keys : [key];
  if (!Array.isArray(set)) return refuse('bad_key', 'the key set has no `keys` array');
  return set
    .filter((jwk): jwk is PublicJwkLike => typeof jwk === 'object' && jwk !== null)
    .filter((jwk) => jwk.kty === 'OKP' && jwk.crv === 'Ed25519')
    .map((jwk) =>
      readKey('an Ed25519 JWK', () =>
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x ?? '') }, format: 'jwk' }),
      ),
    );
}

function publicKeysOf(key: WebhookPublicKey): KeyObject[] {
  if (typeof key === 'string') return ed25519Only([readKey('the PEM', () => createPublicKey(key))]);
  if (key instanceof KeyObject) return ed25519Only([publicOf(key)]);
  // Callers in plain JavaScript may pass anything.
  if (typeof key !== 'object' || key === null)
    return refuse('bad_key', 'no key set, JWK, PEM or KeyObject given');
  return ed25519Only(jwkKeys(key));
}

/** The header, whatever the case of its name in a plain record (Headers ignores it already). */
function header(headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (headers instanceof Headers) value = headers.get(name);
  else if (typeof headers === 'object' && headers !== null) {
    const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
    value = found === undefined ? undefined : headers[found];
  }
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text === '') return refuse('missing_header', `missing ${name} header`);
  return text;
}

/** The `v1a` signatures of a `webhook-signature` header, decoded. */
function v1aSignatures(signatureHeader: string): Buffer[] {
  return signatureHeader
    .split(' ')
    .filter((part) => part.startsWith('v1a,'))
    .map((part) => Buffer.from(part.slice(4), 'base64'));
}

function checkTimestamp(timestamp: string, options: VerifyOptions): void {
  if (!/^\d{1,12}$/.test(timestamp)) refuse('bad_timestamp', 'invalid webhook-timestamp');
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    refuse('stale_timestamp', 'webhook-timestamp is outside the tolerance');
  }
}

function rawBytes(body: string | Uint8Array): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return refuse('bad_payload', 'the body must be the raw bytes received (a string or bytes), not parsed');
}

/**
 * Throws WebhookVerificationError (with its reason) unless `body`, the raw bytes received,
 * carries a valid `v1a` signature by `publicKey` with a timestamp within the tolerance; returns
 * the parsed alert.
 */
export function verifyWebhook(
  publicKey: WebhookPublicKey,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): unknown {
  const keys = publicKeysOf(publicKey);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = v1aSignatures(header(headers, 'webhook-signature'));
  checkTimestamp(timestamp, options);
  if (signatures.length === 0) refuse('no_v1a_signature', 'no v1a signature');
  const raw = rawBytes(body);
  const content = signedContent(id, timestamp, raw);
  const valid = signatures.some(
    (sig) => sig.length === 64 && keys.some((key) => verify(null, content, key, sig)),
  );
  if (!valid) refuse('signature_mismatch', 'no v1a signature matches');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    return refuse('bad_payload', 'the body is signed but is not JSON', e);
  }
}
