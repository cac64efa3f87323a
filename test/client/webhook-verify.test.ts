import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../../src/client/webhook-verify.js';
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
