/**
 * POST /watch before any payment, in mainnet mode: the offer's amount follows the order's hours,
 * a malformed body is a 400, a webhook the SSRF guard refuses is a 400 (loopback, 10.x, the cloud
 * metadata address, a host resolving to a private address, http://), and a full watch list is a
 * 503 with Retry-After — each whether or not a payment came with it, which is never touched.
 * GET and DELETE /watch/{id} read and cancel a watch by its id, 404 for any other. The watch
 * state is the real embedded one; only DNS is injected.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { ScanResult } from '../../src/contract/schemas.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { openLmdbWatchState } from '../../src/state/watches/lmdb.js';
import { newWatchId, newWebhookSecret } from '../../src/watch/door/produce.js';
import type { Watch, WatchState } from '../../src/watch/model.js';
import type { ResolveHost } from '../../src/watch/webhook-url.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { errorCode } from '../helpers/reason-code.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const FULL_SUBJECT = 'So11111111111111111111111111111111111111112';
const PUBLIC_HOOK = 'https://hooks.example.com/risk';

/** DNS as the test wants it: one public host, one that resolves to a private address. */
const resolve: ResolveHost = async (host) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.216.34', family: 4 }];
  if (host === 'inside.example.com') return [{ address: '192.168.1.5', family: 4 }];
  throw new Error(`ENOTFOUND ${host}`);
};

const BASELINE: ScanResult = {
  risk_score: 0.1,
  flags: [],
  confidence: 1,
  summary: 'baseline',
  recommendation: 'Proceed.',
  reasoning: ['a test verdict'],
  evidence: {},
  cached: false,
  version: '0.1.0',
  request_id: '00000000-0000-4000-8000-000000000000',
} as unknown as ScanResult;

const watchOn = (subject: string): Watch => ({
  kind: 'token',
  subject,
  webhook: PUBLIC_HOOK,
  hours: 1,
  id: newWatchId(),
  createdAt: Date.now(),
  expiresAt: Date.now() + 3_600_000,
  status: 'active',
  secret: newWebhookSecret(),
  latest: BASELINE,
  version: 0,
});

let stub: FacilitatorStub;
let svc: TestService;
let state: WatchState;
let stateDir: string;
let kept: Watch;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  stateDir = await mkdtemp(join(tmpdir(), 'watch-route-'));
  state = await openLmdbWatchState(stateDir, {
    mode: 'mainnet',
    signingKey: signingKeyFromPem(generateKeyPem()),
    maxWatches: 2,
    maxWatchesPerSubject: 1,
    resolve,
  });
  kept = watchOn(FULL_SUBJECT);
  assert.equal(typeof (await state.create(kept)), 'object');
  svc = await startTestService(
    { FACILITATOR_URLS: stub.url },
    { mode: selling(SCANNERS, { watches: { state, resolve } }) },
  );
});
after(async () => {
  await svc?.close();
  await state?.close();
  await stub?.close();
  await rm(stateDir, { recursive: true, force: true });
});

const order = (more: Record<string, unknown> = {}) => ({
  kind: 'token',
  subject: USDC,
  webhook: PUBLIC_HOOK,
  hours: 24,
  ...more,
});
/** A payment header that is never looked at: every refusal here comes before it. */
const UNTOUCHED = { 'X-PAYMENT': Buffer.from('{"x402Version":1}').toString('base64') };
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/watch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /watch: the offer', () => {
  for (const hours of [1, 24, 168]) {
    it(`${hours} h costs ${hours} × 0.01 USDC, in the v1 body and the v2 header`, async () => {
      const res = await post(order({ hours }));
      assert.equal(res.status, 402);
      const body = await jsonOf(res);
      const atomic = String(hours * 10_000);
      assert.equal(body.accepts[0].maxAmountRequired, atomic);
      assert.equal(body.accepts[0].resource, `${svc.url}/watch`);
      const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
      assert.equal(v2.accepts[0]!.amount, atomic);
      assert.match(body.error, new RegExp(`${(hours / 100).toFixed(2)} USDC for this order`));
    });
  }

  it('an empty body (an indexer probe) gets the price of one hour', async () => {
    const res = await post('');
    assert.equal(res.status, 402);
    assert.equal((await jsonOf(res)).accepts[0].maxAmountRequired, '10000');
  });
});

describe('POST /watch: refused with 400 before any payment', () => {
  const cases: [string, unknown, RegExp][] = [
    ['not JSON', '{kind: token', /must be JSON/],
    ['an array', '[]', /JSON object/],
    ['an unknown kind', order({ kind: 'nft' }), /kind/],
    ['a subject that is not base58', order({ subject: 'O0Il'.repeat(10) }), /subject/],
    ['a subject of the wrong length', order({ subject: '1111111111111111111111111111111' }), /subject/],
    ['0 hours', order({ hours: 0 }), /hours/],
    ['169 hours', order({ hours: 169 }), /hours/],
    ['1.5 hours', order({ hours: 1.5 }), /hours/],
    ['hours as text', order({ hours: '24' }), /hours/],
    ['no webhook', { kind: 'token', subject: USDC, hours: 1 }, /webhook/],
    ['a webhook that is not a URL', order({ webhook: 'not a url' }), /webhook/],
    ['an unknown field', order({ refund: true }), /refund/],
  ];
  for (const [name, body, message] of cases) {
    it(`${name}, with or without a payment`, async () => {
      for (const headers of [{}, UNTOUCHED]) {
        const res = await post(body, headers);
        assert.equal(res.status, 400, name);
        assert.match((await jsonOf(res)).message, message);
      }
    });
  }
});

describe('POST /watch: the SSRF guard, in mainnet mode, before any payment', () => {
  const refused: [string, string, RegExp][] = [
    ['loopback', 'https://127.0.0.1/hook', /loopback/],
    ['10.x', 'https://10.1.2.3/hook', /private/],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', /metadata/],
    ['a host resolving to a private address', 'https://inside.example.com/hook', /192\.168\.1\.5.*private/],
    ['http://', 'http://hooks.example.com/risk', /https/],
  ];
  for (const [name, webhook, message] of refused) {
    it(`refuses ${name} with 400, with or without a payment`, async () => {
      for (const headers of [{}, UNTOUCHED]) {
        const res = await post(order({ webhook }), headers);
        const body = await jsonOf(res);
        assert.equal(errorCode(res.status, body), 'webhook_refused');
        assert.equal(body.parameter, 'webhook');
        assert.match(body.message, message);
      }
    });
  }
});

describe('POST /watch: a full watch list, before any payment', () => {
  it('a subject at its cap: 503, Retry-After, the reason', async () => {
    for (const headers of [{}, UNTOUCHED]) {
      const res = await post(order({ subject: FULL_SUBJECT }), headers);
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '600');
      const body = await jsonOf(res);
      assert.equal(body.reason, 'subject_full');
      assert.match(body.message, /nothing was charged/);
    }
  });

  it('the service at MAX_WATCHES: 503 for every subject, until one ends', async () => {
    const second = watchOn(USDC);
    assert.equal(typeof (await state.create(second)), 'object');
    const other = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
    const full = await post(order({ subject: other }));
    assert.equal(full.status, 503);
    assert.equal((await jsonOf(full)).reason, 'service_full');
    assert.equal((await fetch(`${svc.url}/watch/${second.id}`, { method: 'DELETE' })).status, 200);
    assert.equal((await post(order({ subject: other }))).status, 402);
  });
});

describe('GET and DELETE /watch/{id}', () => {
  it('reads a watch by its id: status, expiry, latest verdict, deliveries', async () => {
    const res = await fetch(`${svc.url}/watch/${kept.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const view = await jsonOf(res);
    assert.equal(view.watch_id, kept.id);
    assert.equal(view.status, 'active');
    assert.equal(view.subject, FULL_SUBJECT);
    assert.equal(view.expires_at, new Date(kept.expiresAt).toISOString());
    assert.deepEqual(view.latest, BASELINE);
    assert.deepEqual(view.deliveries, []);
  });

  it('answers every other id with the same 404, and a 404 on DELETE', async () => {
    const bodies = [];
    for (const id of [newWatchId(), 'x', 'w_'.padEnd(200, 'a')]) {
      const res = await fetch(`${svc.url}/watch/${id}`);
      const { request_id: _, ...body } = await jsonOf(res);
      assert.equal(errorCode(res.status, body), 'watch_not_found', id);
      bodies.push(body);
      assert.equal((await fetch(`${svc.url}/watch/${id}`, { method: 'DELETE' })).status, 404);
    }
    assert.deepEqual(bodies[1], bodies[0]);
    assert.deepEqual(bodies[2], bodies[0]);
  });

  it('DELETE cancels without refund; the watch then reads cancelled', async () => {
    const watch = watchOn('Vote111111111111111111111111111111111111111');
    // Room for it: the cap counts active watches only.
    assert.equal(typeof (await state.create(watch)), 'object');
    const res = await fetch(`${svc.url}/watch/${watch.id}`, { method: 'DELETE' });
    assert.equal(res.status, 200);
    assert.equal((await jsonOf(res)).status, 'cancelled');
    assert.equal((await jsonOf(await fetch(`${svc.url}/watch/${watch.id}`))).status, 'cancelled');
  });
});

describe('the watch in /openapi.json', () => {
  it('documents POST /watch (body schema, answer, 503) and the free GET and DELETE /watch/{id}', async () => {
    const doc = await jsonOf(await fetch(`${svc.url}/openapi.json`));
    const create = doc.paths['/watch'].post;
    const schema = create.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.required, ['kind', 'subject', 'webhook', 'hours']);
    assert.deepEqual(schema.properties.kind.enum, ['token', 'pumpfun', 'wallet', 'program']);
    assert.equal(schema.properties.hours.maximum, 168);
    assert.ok(create.responses['200'].content['application/json'].schema);
    assert.ok(create.responses['503']);
    assert.equal(create['x-x402-price-usd'], 0.01);
    const item = doc.paths['/watch/{id}'];
    assert.deepEqual(item.get.security, []);
    assert.deepEqual(item.delete.security, []);
    assert.ok(item.get.responses['404'] && item.delete.responses['404']);
  });
});
