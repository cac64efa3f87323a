/**
 * The published contract checked rule by rule against the real HTTP server:
 * §2.2 PaymentRequired, §4.1 rule 1, §4.2 discovery paths, §5, §8 limits, §9 versions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, x402HTTPClient } from '@x402/core/http';
import { atomicPrice, concretePath, GET_ENDPOINTS, PAID_ENDPOINTS } from '../../src/catalog.js';
import { PaymentRequiredSchema } from '../../src/contract/schemas.js';
import type { ReasonCode } from '../../src/reasons.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { errorCode } from '../helpers/reason-code.js';
import {
  jsonOf,
  startTestService,
  TEST_FEE_PAYER,
  TEST_FEE_PAYER_2,
  TEST_PAY_TO,
  type TestService,
} from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const EXPECTED_PRICES = {
  pumpfun: 0.5,
  token: 0.3,
  wallet: 0.02,
  tx: 0.05,
  program: 1,
  simulate: 0.05,
  // Per hour: an order costs hours × this.
  watch: 0.01,
  // Per item: the cheapest kind's single price (a wallet's); each item costs its kind's.
  batch: 0.02,
} as const;
const EXPECTED_ATOMIC = {
  pumpfun: '500000',
  token: '300000',
  wallet: '20000',
  tx: '50000',
  program: '1000000',
  simulate: '50000',
  // The most an order costs: the longest watch, 168 hours.
  watch: '1680000',
  // 25 items at the dearest kind's price (pump.fun's 0.50).
  batch: '12500000',
} as const;
/** How llms.txt and ai.txt word a price: per item, the range over kinds. */
const PRICE_WORDS = (id: keyof typeof EXPECTED_PRICES) =>
  id === 'batch' ? '0.02 to 0.50 USDC per item' : `${EXPECTED_PRICES[id].toFixed(2)} USDC`;

let stubA: FacilitatorStub;
let stubB: FacilitatorStub;
let svc: TestService;

before(async () => {
  stubA = await startFacilitatorStub(TEST_FEE_PAYER);
  stubB = await startFacilitatorStub(TEST_FEE_PAYER_2);
  svc = await startTestService({ FACILITATOR_URLS: `${stubA.url},${stubB.url}` });
});
after(async () => {
  await svc.close();
  await stubA.close();
  await stubB.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(svc.url + path, { headers });

describe('§4.1 paid endpoints without payment (rule 1)', () => {
  for (const endpoint of GET_ENDPOINTS) {
    it(`${endpoint.path} answers 402 with the contract's PaymentRequired body`, async () => {
      const path = concretePath(endpoint, endpoint.param.example);
      const res = await get(path);
      assert.equal(res.status, 402);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const body = await jsonOf(res);
      PaymentRequiredSchema.parse(body);
      assert.equal(body.x402Version, 1);
      assert.equal(body.accepts.length, 1);
      const offer = body.accepts[0];
      assert.equal(offer.scheme, 'exact');
      assert.equal(offer.network, 'solana-mainnet');
      assert.equal(offer.maxAmountRequired, EXPECTED_ATOMIC[endpoint.id]);
      assert.equal(offer.maxAmountRequired, atomicPrice(EXPECTED_PRICES[endpoint.id]));
      assert.equal(offer.resource, svc.url + path);
      assert.equal(offer.mimeType, 'application/json');
      assert.equal(offer.payTo, TEST_PAY_TO);
      assert.equal(offer.asset, USDC);
      assert.equal(typeof offer.description, 'string');
      assert.ok(Number.isInteger(offer.maxTimeoutSeconds) && offer.maxTimeoutSeconds > 0);
      assert.equal(offer.extra.feePayer, TEST_FEE_PAYER, 'fee payer of the first healthy facilitator');
      assert.match(body.error, /Payment required/);
    });

    it(`${endpoint.path} sends the same offer as an x402 v2 PAYMENT-REQUIRED header`, async () => {
      const path = concretePath(endpoint, endpoint.param.example);
      const res = await get(path);
      const header = res.headers.get('payment-required');
      assert.ok(header, 'PAYMENT-REQUIRED header present');
      const v2 = decodePaymentRequiredHeader(header);
      assert.equal(v2.x402Version, 2);
      assert.equal(v2.resource.url, svc.url + path);
      assert.deepEqual(v2.accepts, [
        {
          scheme: 'exact',
          network: CAIP2,
          amount: EXPECTED_ATOMIC[endpoint.id],
          asset: USDC,
          payTo: TEST_PAY_TO,
          maxTimeoutSeconds: 60,
          extra: { feePayer: TEST_FEE_PAYER },
        },
      ]);
    });
  }

  it('the official @x402/core HTTP client reads the 402 as a v2 offer it can pay', async () => {
    const res = await get('/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    const client = new x402HTTPClient(new x402Client());
    const required = client.getPaymentRequiredResponse((name) => res.headers.get(name), await jsonOf(res));
    assert.equal(required.x402Version, 2);
    assert.equal(required.accepts[0]?.network, CAIP2);
    assert.equal(required.accepts[0]?.amount, '300000');
  });

  it('a payment header that cannot be taken yet is answered 402 with a reason, not 200 or 500', async () => {
    const res = await get('/scan/wallet/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', {
      'X-PAYMENT': 'e30=',
    });
    assert.equal(res.status, 402);
    const body = await jsonOf(res);
    PaymentRequiredSchema.parse(body);
    assert.ok(body.error.length > 0);
  });
});

describe('400 before payment', () => {
  const cases: [string, string, ReasonCode][] = [
    ['/scan/token/not-base58-0OIl', 'mint', 'base58_alphabet'],
    ['/scan/token/abc', 'mint', 'base58_length'],
    [`/scan/pumpfun/${'1'.repeat(45)}`, 'mint', 'base58_length'],
    ['/scan/wallet/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEG', 'address', 'base58_length'],
    ['/scan/program/%20', 'id', 'base58_alphabet'],
    // A 32-byte address where a 64-byte signature is required.
    ['/verify/tx/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'signature', 'base58_length'],
    ['/scan/token/', 'mint', 'parameter_missing'],
    ['/scan/token', 'mint', 'parameter_missing'],
  ];
  for (const [path, parameter, code] of cases) {
    it(`${path} → 400 ${code} naming "${parameter}", even with a payment attached`, async () => {
      for (const headers of [{}, { 'X-PAYMENT': 'e30=' }]) {
        const res = await get(path, headers);
        assert.equal(res.headers.get('payment-required'), null, 'never asks for payment');
        const body = await jsonOf(res);
        assert.equal(errorCode(res.status, body), code);
        assert.equal(body.parameter, parameter);
        assert.ok(body.message.startsWith(parameter));
      }
    });
  }
});

describe('§4.2 free discovery endpoints', () => {
  const paths = [
    '/',
    '/health',
    '/openapi.json',
    '/.well-known/x402-discovery',
    '/.well-known/ai-plugin.json',
    '/ai.txt',
    '/llms.txt',
    '/robots.txt',
    '/docs',
  ];
  for (const path of paths) {
    it(`${path} answers 200 without payment`, async () => {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.ok((await res.text()).length > 0);
    });
  }

  it('/ lists every paid endpoint with its price and links to the discovery documents', async () => {
    const root = await jsonOf(await get('/'));
    assert.deepEqual(
      root.endpoints.map((e: { path: string; price_usd: number }) => [e.path, e.price_usd]),
      PAID_ENDPOINTS.map((e) => [e.path, EXPECTED_PRICES[e.id]]),
    );
    assert.equal(root.links.openapi, `${svc.url}/openapi.json`);
    assert.equal(root.links.docs, `${svc.url}/docs`);
  });

  it('/health reports status, mode, version and each dependency', async () => {
    const health = await jsonOf(await get('/health'));
    assert.equal(health.status, 'ok');
    assert.equal(health.mode, 'mainnet');
    assert.match(health.version, /^\d+\.\d+\.\d+/);
    assert.equal(health.checks.payments.status, 'ok');
    assert.equal(health.checks.payments.advertised, stubA.url);
    assert.equal(health.checks.rpc.status, 'ok');
  });

  it('/.well-known/x402-discovery carries network, asset, payTo, facilitators and every resource', async () => {
    const doc = await jsonOf(await get('/.well-known/x402-discovery'));
    assert.equal(doc.network, 'solana-mainnet');
    assert.equal(doc.asset.address, USDC);
    assert.equal(doc.payTo, TEST_PAY_TO);
    assert.deepEqual(doc.facilitators, [stubA.url, stubB.url]);
    assert.deepEqual(
      doc.resources.map(
        (r: { method: string; path: string; price_usd: number; maxAmountRequired: string }) => [
          r.method,
          r.path,
          r.price_usd,
          r.maxAmountRequired,
        ],
      ),
      PAID_ENDPOINTS.map((e) => [e.method, e.path, EXPECTED_PRICES[e.id], EXPECTED_ATOMIC[e.id]]),
    );
    for (const r of doc.resources) assert.ok(r.description.length > 0);
    // The contract's five keep their fields exactly; our POST adds itself after them.
    const fields = ['resource', 'method', 'path', 'parameter', 'price_usd', 'maxAmountRequired'];
    for (const r of doc.resources.slice(0, 5)) for (const f of fields) assert.ok(f in r, f);
    const simulate = doc.resources[5];
    assert.equal(simulate.body.schema.required[0], 'transaction');
  });

  it('/.well-known/ai-plugin.json points at the OpenAPI document and needs no auth', async () => {
    const plugin = await jsonOf(await get('/.well-known/ai-plugin.json'));
    assert.equal(plugin.api.type, 'openapi');
    assert.equal(plugin.api.url, `${svc.url}/openapi.json`);
    assert.equal(plugin.auth.type, 'none');
  });

  it('/llms.txt lists every paid endpoint with its price, and the discovery links', async () => {
    const text = await (await get('/llms.txt')).text();
    for (const e of PAID_ENDPOINTS) {
      const line = text.split('\n').find((l) => l.includes(`${e.method} ${e.path}`));
      assert.ok(line, `${e.path} listed`);
      assert.ok(line.includes(PRICE_WORDS(e.id)), `${e.path} priced`);
    }
    for (const link of ['/openapi.json', '/.well-known/x402-discovery', '/.well-known/ai-plugin.json']) {
      assert.ok(text.includes(svc.url + link), `links ${link}`);
    }
  });

  it('/ai.txt names every paid endpoint and price', async () => {
    const text = await (await get('/ai.txt')).text();
    for (const e of PAID_ENDPOINTS) assert.ok(text.includes(`${e.path}  ${PRICE_WORDS(e.id)}`), e.path);
  });

  it('/robots.txt allows all user agents on all paths', async () => {
    const text = await (await get('/robots.txt')).text();
    assert.match(text, /^User-agent: \*$/m);
    assert.match(text, /^Allow: \/$/m);
    assert.doesNotMatch(text, /Disallow: \S/);
  });
});

describe('§4.2 /openapi.json and §9 versions', () => {
  let doc: Record<string, any>;
  before(async () => {
    doc = await jsonOf(await get('/openapi.json'));
  });

  it('is OpenAPI 3.1 declaring version 0.0.0', () => {
    assert.match(doc.openapi, /^3\.1\./);
    assert.equal(doc.info.version, '0.0.0');
  });

  it('passes a real OpenAPI 3.1 validator', async () => {
    const result = await validate(structuredClone(doc) as any);
    assert.equal(result.valid, true, JSON.stringify(result));
  });

  it('carries x-x402 with version 1, two facilitators, the USDC asset and solana-mainnet', () => {
    assert.deepEqual(doc['x-x402'], {
      version: 1,
      facilitators: [stubA.url, stubB.url],
      asset: USDC,
      network: 'solana-mainnet',
    });
  });

  it('prices each paid operation with x-x402-price-usd in the order of §1', () => {
    const prices = GET_ENDPOINTS.map((e) => doc.paths[e.path]?.get?.['x-x402-price-usd']);
    assert.deepEqual(prices, [0.5, 0.3, 0.02, 0.05, 1]);
  });

  it('documents 200, 400, 402 and 500 with schemas on each paid operation', () => {
    for (const e of GET_ENDPOINTS) {
      const op = doc.paths[e.path].get;
      assert.deepEqual(Object.keys(op.responses).sort(), ['200', '400', '402', '500']);
      for (const status of ['200', '400', '402', '500']) {
        assert.ok(op.responses[status].content['application/json'].schema, `${e.path} ${status} schema`);
      }
      // §4.1's response descriptions, word for word.
      assert.deepEqual(
        Object.fromEntries(Object.entries(op.responses).map(([s, r]: [string, any]) => [s, r.description])),
        {
          200: 'scan result',
          400: 'invalid input',
          402: 'payment required (X402 protocol)',
          500: 'scan failed',
        },
      );
      assert.equal(op.parameters.length, 1);
      assert.equal(op.parameters[0].name, e.param.name);
      assert.equal(op.parameters[0].in, 'path');
    }
    // §2.2: x402Version is an integer, always 1.
    const version = doc.components.schemas.PaymentRequired.properties.x402Version;
    assert.equal(version.type, 'integer');
    assert.deepEqual(version.enum, [1]);
    const scanResult = doc.components.schemas.ScanResult;
    assert.deepEqual([...scanResult.required].sort(), [
      'confidence',
      'flags',
      'reasoning',
      'recommendation',
      'risk_score',
      'summary',
    ]);
  });

  it('lists the free discovery endpoints too', () => {
    for (const path of [
      '/',
      '/health',
      '/openapi.json',
      '/.well-known/x402-discovery',
      '/llms.txt',
      '/docs',
    ]) {
      assert.ok(doc.paths[path]?.get, path);
    }
  });

  it('documents each free endpoint with the media type it is served as', async () => {
    const free = Object.entries(doc.paths).filter(
      ([, item]: [string, any]) => item.get !== undefined && !item.get['x-x402-price-usd'],
    );
    assert.ok(free.length >= 9);
    for (const [path, item] of free as [string, any][]) {
      const documented = Object.keys(item.get.responses['200'].content);
      const served = (await get(path)).headers.get('content-type') ?? '';
      assert.deepEqual(documented, [served.split(';')[0]], path);
    }
  });
});

describe('CORS for browser agents', () => {
  it('preflight allows any origin and the x402 request headers', async () => {
    const res = await fetch(`${svc.url}/scan/token/${USDC}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-payment, payment-signature',
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    assert.ok(allowed.includes('x-payment') && allowed.includes('payment-signature'));
  });

  it('responses expose the x402 response headers', async () => {
    const res = await get(`/scan/token/${USDC}`, { Origin: 'https://agent.example' });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const h of ['x-payment-response', 'payment-response', 'payment-required'])
      assert.ok(exposed.includes(h), h);
  });
});

describe('unknown paths, methods and oversized requests', () => {
  it('unknown path → 404 JSON', async () => {
    const res = await get('/nope');
    assert.equal(errorCode(res.status, await jsonOf(res)), 'endpoint_not_found');
  });

  it('a served path with a trailing slash → 308 to the path itself, query kept; an unknown one → 404', async () => {
    const cases = [
      ['/health/', '/health'],
      ['/.well-known/x402-discovery/', '/.well-known/x402-discovery'],
      [`/scan/token/${USDC}/?a=1`, `/scan/token/${USDC}?a=1`],
      // Escapes stay escaped: a decoded CR LF or é could not be sent in a header at all.
      ['/scan/token/%0d%0aX:y/', '/scan/token/%0d%0aX:y'],
      ['/scan/token/%C3%A9/', '/scan/token/%C3%A9'],
    ];
    for (const [from, to] of cases) {
      const res = await fetch(`${svc.url}${from}`, { redirect: 'manual' });
      assert.equal(res.status, 308, from);
      assert.equal(res.headers.get('location'), to, from);
    }
    const followed = await fetch(`${svc.url}/scan/token/${USDC}/`);
    assert.equal(followed.status, 402, 'followed, the 402 offer');
    assert.equal((await fetch(`${svc.url}/nope/`, { redirect: 'manual' })).status, 404);
    assert.equal((await fetch(`${svc.url}//evil.example/`, { redirect: 'manual' })).status, 404);
  });

  it('POST to a paid path → 405 JSON with Allow', async () => {
    const res = await fetch(`${svc.url}/scan/token/${USDC}`, { method: 'POST', body: '{}' });
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(errorCode(res.status, await jsonOf(res)), 'method_not_allowed');
  });

  it('a plain OPTIONS (no preflight) → 204 with Allow on a known path, 404 on an unknown one', async () => {
    for (const path of [`/scan/token/${USDC}`, '/health', '/llms.txt']) {
      const res = await fetch(`${svc.url}${path}`, { method: 'OPTIONS' });
      assert.equal(res.status, 204, path);
      assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS', path);
      assert.ok(res.headers.get('x-request-id'));
    }
    assert.equal((await fetch(`${svc.url}/nope`, { method: 'OPTIONS' })).status, 404);
  });

  it('an over-long URL → 414 JSON', async () => {
    const res = await get(`/scan/token/${'1'.repeat(5000)}`);
    assert.equal(errorCode(res.status, await jsonOf(res)), 'uri_too_long');
  });

  it('headers over 64 KiB → 431 JSON, and the server keeps serving', async () => {
    const res = await get('/health', { 'X-Filler': 'a'.repeat(70 * 1024) });
    assert.equal(errorCode(res.status, await jsonOf(res)), 'headers_too_large');
    assert.equal((await get('/health')).status, 200);
  });
});

describe('the resource URL', () => {
  it('uses PUBLIC_BASE_URL when configured, in the 402 and in discovery documents', async () => {
    const other = await startTestService({
      FACILITATOR_URLS: stubA.url,
      PUBLIC_BASE_URL: 'https://scan.example.com/',
    });
    try {
      const res = await fetch(`${other.url}/scan/program/${USDC}`);
      const body = await jsonOf(res);
      assert.equal(body.accepts[0].resource, `https://scan.example.com/scan/program/${USDC}`);
      const llms = await (await fetch(`${other.url}/llms.txt`)).text();
      assert.ok(llms.includes('https://scan.example.com/openapi.json'));
    } finally {
      await other.close();
    }
  });
});
