/**
 * The client's result verifier: the service's key set is read before a payment leaves (a set
 * that cannot be had costs nothing), and read again once for a key it does not know yet, so a
 * service that rotated its key is not refused after being paid.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { RiskScanError } from '../../packages/client/src/errors.js';
import { type Ed25519Jwk, ResultVerifier } from '../../packages/client/src/result-signature.js';

const JWKS_URL = 'http://127.0.0.1:1/.well-known/jwks.json';

function keyPair(kid: string): { jwk: Ed25519Jwk; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { jwk: { ...(publicKey.export({ format: 'jwk' }) as Ed25519Jwk), kid }, privateKey };
}

const signed = (body: Uint8Array, kid: string, privateKey: KeyObject) =>
  `ed25519 keyid=${kid}; sig=${sign(null, body, privateKey).toString('base64')}`;

/** A fetch answering each read of the key set with the next of `sets` (the last one repeated). */
function publishing(sets: readonly (readonly Ed25519Jwk[] | 'down')[]) {
  let reads = 0;
  const fetchJwks = (async () => {
    const set = sets[Math.min(reads++, sets.length - 1)]!;
    if (set === 'down') return new Response('unavailable', { status: 503 });
    return Response.json({ keys: set });
  }) as typeof fetch;
  return { fetchJwks, reads: () => reads };
}

describe('the result verifier', () => {
  const body = new TextEncoder().encode('{"risk_score":0.1}');

  it('refuses before payment, with nothing paid, when the key set cannot be read', async () => {
    const { fetchJwks } = publishing(['down']);
    const verifier = new ResultVerifier(JWKS_URL, undefined, fetchJwks);
    const refused = await verifier.ready(5).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof RiskScanError);
    assert.equal(refused.code, 'signing_key_unavailable');
    assert.equal(refused.paid, false);
    assert.match(refused.message, /Nothing was paid\.$/);
  });

  it('reads the key set again once for a key it does not know (a rotated key), then verifies', async () => {
    const old = keyPair('old');
    const rotated = keyPair('new');
    const published = publishing([[old.jwk], [rotated.jwk]]);
    const verifier = new ResultVerifier(JWKS_URL, undefined, published.fetchJwks);
    await verifier.ready(5);
    await verifier.check(body, signed(body, 'new', rotated.privateKey), 5);
    assert.equal(published.reads(), 2);
    await verifier.check(body, signed(body, 'new', rotated.privateKey), 5);
    assert.equal(published.reads(), 2, 'a known key is not read again');
  });

  it('still refuses a key the service does not publish, after reading once more', async () => {
    const own = keyPair('own');
    const stranger = keyPair('stranger');
    const published = publishing([[own.jwk]]);
    const verifier = new ResultVerifier(JWKS_URL, undefined, published.fetchJwks);
    await verifier.ready(5);
    const refused = await verifier.check(body, signed(body, 'stranger', stranger.privateKey), 5).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof RiskScanError);
    assert.equal(refused.code, 'bad_signature');
    assert.equal(refused.paid, true);
    assert.equal(published.reads(), 2);
  });

  it('never reads a pinned key from the service', async () => {
    const pinned = keyPair('pinned');
    const published = publishing([[pinned.jwk]]);
    const verifier = new ResultVerifier(JWKS_URL, pinned.jwk, published.fetchJwks);
    await verifier.ready(5);
    await verifier.check(body, signed(body, 'pinned', pinned.privateKey), 5);
    assert.equal(published.reads(), 0);
  });
});
