import assert from 'node:assert/strict';
import { createPublicKey, createSecretKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  verifyWebhook,
  type WebhookHeaders,
  type WebhookPublicKey,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '@solana-risk-scan/client/webhook';
import { Webhook } from 'standardwebhooks';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { jwks } from '../../src/signing/signature.js';
import { signDelivery } from '../../src/watch/delivery/sign.js';

const key = signingKeyFromPem(generateKeyPem());
const otherKey = signingKeyFromPem(generateKeyPem());
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const AT = 1_790_000_000_000;
const body = JSON.stringify({
  type: 'watch.changed',
  watch_id: 'w1',
  changed: { scoreBefore: 10, scoreAfter: 80 },
});
const headers = signDelivery({ webhookId: 'msg_abc', at: AT, body, secret: SECRET, key });
const at = (ms: number) => () => ms;
const rejected = (message: RegExp) => (e: unknown) =>
  e instanceof WebhookVerificationError && message.test(e.message);

describe('verifyWebhook (v1a, the published key)', () => {
  it('verifies a delivery with the JWKS, one JWK, or a PEM public key, and gives back the body', () => {
    const pem = createPublicKey(key.privateKey).export({ type: 'spki', format: 'pem' }).toString();
    for (const publicKey of [jwks([otherKey.publicJwk, key.publicJwk]), key.publicJwk, pem]) {
      const parsed = verifyWebhook(publicKey, headers, body, { now: at(AT + 30_000) });
      assert.deepEqual(parsed, JSON.parse(body));
    }
    verifyWebhook(key.publicJwk, new Headers(headers), Buffer.from(body), { now: at(AT) });
  });

  it('refuses a body with one byte changed', () => {
    const changed = body.replace('80', '81');
    assert.throws(
      () => verifyWebhook(key.publicJwk, headers, changed, { now: at(AT) }),
      rejected(/no v1a signature matches/),
    );
  });

  it('refuses a changed webhook-id or timestamp (both are signed)', () => {
    const otherId = { ...headers, 'webhook-id': 'msg_abd' };
    assert.throws(() => verifyWebhook(key.publicJwk, otherId, body, { now: at(AT) }), rejected(/matches/));
    const otherTime = { ...headers, 'webhook-timestamp': String(AT / 1000 + 1) };
    assert.throws(() => verifyWebhook(key.publicJwk, otherTime, body, { now: at(AT) }), rejected(/matches/));
  });

  it('refuses the wrong key', () => {
    assert.throws(
      () => verifyWebhook(otherKey.publicJwk, headers, body, { now: at(AT) }),
      rejected(/matches/),
    );
  });

  it('refuses a stale timestamp, and one from the future, beyond the tolerance', () => {
    assert.throws(
      () => verifyWebhook(key.publicJwk, headers, body, { now: at(AT + 301_000) }),
      rejected(/tolerance/),
    );
    assert.throws(
      () => verifyWebhook(key.publicJwk, headers, body, { now: at(AT - 301_000) }),
      rejected(/tolerance/),
    );
    verifyWebhook(key.publicJwk, headers, body, { now: at(AT + 3_600_000), toleranceSeconds: 3_600 });
  });

  it('refuses a delivery without a v1a signature, or without its headers', () => {
    const v1Only = { ...headers, 'webhook-signature': headers['webhook-signature'].split(' ')[0] as string };
    assert.throws(
      () => verifyWebhook(key.publicJwk, v1Only, body, { now: at(AT) }),
      rejected(/no v1a signature/),
    );
    const { 'webhook-id': _, ...noId } = headers;
    assert.throws(
      () => verifyWebhook(key.publicJwk, noId, body, { now: at(AT) }),
      rejected(/missing webhook-id/),
    );
  });
});

describe('verifyWebhook: every bad input is a WebhookVerificationError with its reason', () => {
  const refused = (reason: WebhookVerificationReason, message?: RegExp) => (e: unknown) =>
    e instanceof WebhookVerificationError && e.reason === reason && (message?.test(e.message) ?? true);
  const check = (publicKey: unknown, given: WebhookHeaders = headers, raw: unknown = body) =>
    verifyWebhook(publicKey as WebhookPublicKey, given, raw as string, { now: at(AT) });

  it('bad_key: a key set, JWK or PEM that cannot be read, or no key at all', () => {
    for (const bad of [
      'not a PEM',
      { keys: 'nope' },
      { kty: 'OKP', crv: 'Ed25519', x: '!!' },
      { keys: [{ kty: 'OKP', crv: 'Ed25519' }] },
      null,
      42,
    ]) {
      assert.throws(() => check(bad), refused('bad_key'), JSON.stringify(bad));
    }
  });

  it('wrong_key_type: an RSA or EC key, a key set without Ed25519, a secret key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    for (const wrong of [
      rsa,
      rsa.export({ type: 'spki', format: 'pem' }).toString(),
      ec.export({ format: 'jwk' }),
      { keys: [ec.export({ format: 'jwk' })] },
      { keys: [] },
      createSecretKey(randomBytes(32)),
    ]) {
      assert.throws(() => check(wrong), refused('wrong_key_type'));
    }
  });

  it('missing_header: each of the three headers absent or empty, in a record or in Headers', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _, ...without } = headers;
      assert.throws(() => check(key.publicJwk, without), refused('missing_header', new RegExp(name)));
      assert.throws(() => check(key.publicJwk, new Headers(without)), refused('missing_header'));
      assert.throws(() => check(key.publicJwk, { ...headers, [name]: '' }), refused('missing_header'));
    }
    const titled = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    assert.deepEqual(check(key.publicJwk, titled), JSON.parse(body), 'header names are case-insensitive');
  });

  it('bad_timestamp and stale_timestamp', () => {
    for (const timestamp of ['soon', '-5', '1.5e9', '']) {
      const reason = timestamp === '' ? 'missing_header' : 'bad_timestamp';
      assert.throws(
        () => check(key.publicJwk, { ...headers, 'webhook-timestamp': timestamp }),
        refused(reason),
      );
    }
    const old = signDelivery({ webhookId: 'msg_abc', at: AT - 3_600_000, body, secret: SECRET, key });
    assert.throws(() => check(key.publicJwk, old), refused('stale_timestamp'));
  });

  it('no_v1a_signature and signature_mismatch', () => {
    const v1Only = { ...headers, 'webhook-signature': headers['webhook-signature'].split(' ')[0] as string };
    assert.throws(() => check(key.publicJwk, v1Only), refused('no_v1a_signature'));
    assert.throws(
      () => check(key.publicJwk, headers, body.replace('80', '81')),
      refused('signature_mismatch'),
    );
    assert.throws(() => check(otherKey.publicJwk), refused('signature_mismatch'));
  });

  it('bad_payload: a signed body that is not JSON, or a body already parsed', () => {
    const notJson = 'not json {';
    const signed = signDelivery({ webhookId: 'msg_abc', at: AT, body: notJson, secret: SECRET, key });
    assert.throws(() => check(key.publicJwk, signed, notJson), refused('bad_payload', /not JSON/));
    assert.throws(() => check(key.publicJwk, headers, JSON.parse(body)), refused('bad_payload', /raw bytes/));
  });
});

describe('signDelivery', () => {
  it('signs v1 with the watch secret so standardwebhooks verifies it, beside v1a', () => {
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/=]+ v1a,[A-Za-z0-9+/=]{86}==$/);
    assert.equal(headers['webhook-timestamp'], String(AT / 1000));
    // standardwebhooks checks the timestamp against the real clock: sign one made now.
    const fresh = signDelivery({ webhookId: 'msg_abc', at: Date.now(), body, secret: SECRET, key });
    assert.deepEqual(new Webhook(SECRET).verify(body, fresh), JSON.parse(body));
    assert.throws(() => new Webhook('whsec_b3RoZXItc2VjcmV0LW9mLTMyLWJ5dGVzISEhISEh').verify(body, fresh));
  });

  it('standardwebhooks 1.1.1 cannot verify v1a: given only a v1a signature it refuses the delivery', () => {
    const fresh = signDelivery({ webhookId: 'msg_abc', at: Date.now(), body, secret: SECRET, key });
    const v1aOnly = { ...fresh, 'webhook-signature': fresh['webhook-signature'].split(' ')[1] as string };
    assert.throws(() => new Webhook(SECRET).verify(body, v1aOnly), /No matching signature/);
  });
});
