/**
 * Every paid result is checked against the service's published Ed25519 key before it is
 * returned: the `X-Signature: ed25519 keyid=<kid>; sig=<base64>` header over the body's exact
 * bytes (docs/signing.md of the service). The key is pinned, or fetched from
 * {apiUrl}/.well-known/jwks.json before the first payment and kept.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { RiskScanError } from './errors.js';

const HEADER = /^ed25519 keyid=(\S+); sig=([A-Za-z0-9+/]+={0,2})$/;

/** An Ed25519 public key as a JWK (`kty: OKP`, `crv: Ed25519`), with its `kid` when it has one. */
export interface Ed25519Jwk {
  readonly kty?: string;
  readonly crv?: string;
  readonly x?: string;
  readonly kid?: string;
}

/** Every refusal comes after the payment: the result was paid for, and is not given. */
const refuse = (
  code: 'bad_signature' | 'unsigned_result' | 'signing_key_unavailable',
  message: string,
  cause?: unknown,
) => new RiskScanError(code, `${message} It was paid for, and is not used.`, { paid: true, cause });

function keyOf(jwk: Ed25519Jwk): KeyObject | null {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** Why the key set could not be had; worded as paid or unpaid by the step that asked. */
class KeysUnreadable extends Error {}

/**
 * Checks results against one service's keys: a pinned JWK, or its JWKS fetched before the first
 * payment (a key set that cannot be had then costs nothing) and again once for a key it does
 * not know yet (the service rotated its key).
 */
export class ResultVerifier {
  private keys: Promise<readonly Ed25519Jwk[]> | null;
  private readonly pinned: boolean;

  constructor(
    private readonly jwksUrl: string,
    pinned: Ed25519Jwk | undefined,
    private readonly fetchJwks: typeof fetch = fetch,
  ) {
    this.pinned = pinned !== undefined;
    this.keys = pinned === undefined ? null : Promise.resolve([pinned]);
  }

  /** Has the key set before a payment leaves: a failure here is refused with nothing paid. */
  async ready(timeoutS: number): Promise<void> {
    await this.published(timeoutS).catch((e: unknown) => {
      const why = e instanceof KeysUnreadable ? e.message : String(e);
      throw new RiskScanError('signing_key_unavailable', `${why} Nothing was paid.`, {
        paid: false,
        cause: e instanceof KeysUnreadable ? e.cause : e,
      });
    });
  }

  private published(timeoutS: number): Promise<readonly Ed25519Jwk[]> {
    this.keys ??= this.fetchKeys(timeoutS).catch((e: unknown) => {
      this.keys = null; // a failed read is tried again by the next call
      throw e;
    });
    return this.keys;
  }

  private async fetchKeys(timeoutS: number): Promise<readonly Ed25519Jwk[]> {
    const signal = AbortSignal.timeout(timeoutS * 1000);
    const res = await this.fetchJwks(this.jwksUrl, { signal }).catch((e: unknown) => {
      throw new KeysUnreadable(`Cannot read the signing keys at ${this.jwksUrl}.`, { cause: e });
    });
    const doc = (await res.json().catch(() => null)) as { keys?: unknown } | null;
    if (!res.ok || !Array.isArray(doc?.keys))
      throw new KeysUnreadable(`${this.jwksUrl} answered HTTP ${res.status} without a key set.`);
    return doc.keys as Ed25519Jwk[];
  }

  /** The key named `kid`, read again once from the service when it is not among those fetched. */
  private async keyFor(kid: string, timeoutS: number): Promise<KeyObject | null> {
    const find = (keys: readonly Ed25519Jwk[]) =>
      keys.find((k) => k.kid === kid) ??
      (keys.length === 1 && keys[0]!.kid === undefined ? keys[0] : undefined);
    const paidRefusal = (e: unknown) => {
      throw refuse('signing_key_unavailable', e instanceof KeysUnreadable ? e.message : String(e), e);
    };
    let jwk = find(await this.published(timeoutS).catch(paidRefusal));
    if (jwk === undefined && !this.pinned) {
      this.keys = null;
      jwk = find(await this.published(timeoutS).catch(paidRefusal));
    }
    return jwk === undefined ? null : keyOf(jwk);
  }

  /** Throws unless `header` is a valid signature of `body` by the service's key. */
  async check(body: Uint8Array, header: string | null, timeoutS: number): Promise<void> {
    if (header === null || header === '')
      throw refuse(
        'unsigned_result',
        'The API delivered a paid result without an X-Signature: it is not trusted.',
      );
    const parts = HEADER.exec(header);
    if (parts === null) throw refuse('bad_signature', `The result's X-Signature cannot be read: ${header}`);
    const [, kid, sig] = parts as unknown as [string, string, string];
    const key = await this.keyFor(kid, timeoutS);
    if (key === null)
      throw refuse(
        'bad_signature',
        `The result is signed with the key ${kid}, which the service does not publish.`,
      );
    const signature = Buffer.from(sig, 'base64');
    if (signature.length !== 64 || !verify(null, body, key, signature))
      throw refuse(
        'bad_signature',
        'The result does not match its X-Signature: it was altered, or not signed by the service.',
      );
  }
}
