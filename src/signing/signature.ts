/**
 * Signed results: the Ed25519 signature of a paid 200's exact body bytes (UTF-8), and how each
 * transport words it (docs/signing.md). Ed25519 is deterministic: the same body signed with the
 * same key gives the same signature, so a replayed result carries the one first delivered.
 */
import { sign } from 'node:crypto';
import type { PublicJwk, SigningKey } from './key.js';

/** The HTTP response header a paid 200 carries its signature in. */
export const SIGNATURE_HEADER = 'X-Signature';

/** One body's signature: the key it was made with and the signature (base64, 64 bytes). */
export interface BodySignature {
  readonly keyid: string;
  readonly sig: string;
}

/** Signs `body` as sent: its UTF-8 bytes. */
export type SignBody = (body: string) => BodySignature;

export function bodySigner(key: SigningKey): SignBody {
  return (body) => ({
    keyid: key.kid,
    sig: sign(null, Buffer.from(body, 'utf8'), key.privateKey).toString('base64'),
  });
}

/** `ed25519 keyid=<kid>; sig=<base64>`, the header's value. */
export function signatureHeaderValue(signature: BodySignature): string {
  return `ed25519 keyid=${signature.keyid}; sig=${signature.sig}`;
}

/** The JWKS document of /.well-known/jwks.json. */
export function jwks(keys: readonly PublicJwk[]): { keys: readonly PublicJwk[] } {
  return { keys };
}
