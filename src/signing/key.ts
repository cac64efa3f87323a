/**
 * The service's Ed25519 signing key: what it signs paid results with, and the public half it
 * publishes as a JWKS (RFC 7517, an OKP key of RFC 8037) so an agent can check a result with
 * standard tools and no shared secret. Keys are kept as PKCS#8 PEM, the form
 * `openssl genpkey -algorithm ed25519` writes.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';

/** The public key as a JWK, as /.well-known/jwks.json lists it. */
export interface PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
}

export interface SigningKey {
  /** The key id: the public key's JWK thumbprint (RFC 7638, SHA-256, base64url). */
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;
}

/** Not an Ed25519 private key in PKCS#8 PEM: why, in words for the operator. */
export class KeyFormatError extends Error {
  override readonly name = 'KeyFormatError';
}

/** A fresh key, as PKCS#8 PEM. */
export function generateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** RFC 7638: SHA-256 of the required members in lexical order, no spaces. */
function thumbprint(x: string): string {
  const canonical = `{"crv":"Ed25519","kty":"OKP","x":"${x}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Reads a PKCS#8 PEM Ed25519 private key; throws KeyFormatError when it is not one. */
export function signingKeyFromPem(pem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyFormatError('not a PEM private key');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new KeyFormatError(`a ${privateKey.asymmetricKeyType ?? 'symmetric'} key, not an Ed25519 one`);
  }
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x as string;
  const kid = thumbprint(x);
  return { kid, privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' } };
}
