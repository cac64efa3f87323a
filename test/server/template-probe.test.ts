/**
 * The template probe: a GET of a paid endpoint's literal template (`/scan/token/{mint}`, as an
 * indexer reads it from /openapi.json, raw or percent-encoded, or `/scan/token/:mint` as the
 * Bazaar `routeTemplate` writes it) answers the endpoint's 402 offer, naming the template, so
 * the endpoint can be registered from its template. Any other malformed parameter is still a
 * 400 before payment. (That a payment presented there is refused untouched is
 * test/e2e/template-payment.test.ts, on the sandbox chain.)
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getProbe } from '@agentcash/discovery';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { concretePath, GET_ENDPOINTS, type GetEndpoint } from '../../src/catalog.js';
import { PaymentRequiredSchema } from '../../src/contract/schemas.js';
import { paymentPrompt } from '../../src/door/offers.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const EXAMPLE_ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A GET with the path sent exactly as written: fetch, and http.request given a URL string,
 * would percent-encode the braces.
 */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const origin = new URL(url).origin;
  const target = {
    hostname: new URL(origin).hostname,
    port: new URL(origin).port,
    path: url.slice(origin.length),
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ ...target, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The forms an indexer may ask for: raw, percent-encoded (either case), and `:name`. */
function templateForms(endpoint: GetEndpoint): string[] {
  const { name } = endpoint.param;
  return [
    concretePath(endpoint, `{${name}}`),
    concretePath(endpoint, `%7B${name}%7D`),
    concretePath(endpoint, `%7b${name}%7d`),
    concretePath(endpoint, `:${name}`),
  ];
}

const v2Of = (answer: Answer) => decodePaymentRequiredHeader(answer.headers['payment-required']!);

let stub: FacilitatorStub;
let svc: TestService;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  svc = await startTestService({ FACILITATOR_URLS: stub.url });
});
after(async () => {
  await svc?.close();
  await stub?.close();
});

describe('a paid endpoint asked for by its template', () => {
  for (const endpoint of GET_ENDPOINTS) {
    it(`${endpoint.path}: every template form answers 402 with the endpoint's offer, naming the template`, async () => {
      const example = await rawGet(svc.url + concretePath(endpoint, endpoint.param.example));
      assert.equal(example.status, 402);
      for (const path of templateForms(endpoint)) {
        const answer = await rawGet(svc.url + path);
        assert.equal(answer.status, 402, `${path}: ${answer.body}`);
        assert.equal(answer.headers['cache-control'], 'no-store', path);
        assert.match(answer.headers['content-type'] ?? '', /^application\/json/, path);
        const body = JSON.parse(answer.body);
        PaymentRequiredSchema.parse(body);
        assert.equal(body.error, paymentPrompt(endpoint).text, `${path}: the standard offer, not a refusal`);
        assert.equal(body.reason, paymentPrompt(endpoint).code, path);
        // The template as written (decoded), so the resource names the endpoint, not a subject.
        const named = path.includes(':') ? path : endpoint.path;
        const resource = svc.url + named;
        assert.equal(body.accepts[0].resource, resource, path);
        assert.equal(v2Of(answer).resource.url, resource, path);
        // The same offer as a subject's in every other field: built by the same code.
        const exampleResource = svc.url + concretePath(endpoint, endpoint.param.example);
        assert.equal(answer.body, example.body.replace(exampleResource, resource), path);
        const { resource: _t, ...v2Template } = v2Of(answer);
        const { resource: _e, ...v2Example } = v2Of(example);
        assert.deepEqual(v2Template, v2Example, path);
        assert.deepEqual(
          { ...v2Of(answer).resource, url: '' },
          { ...v2Of(example).resource, url: '' },
          `${path}: the same service metadata`,
        );
      }
    });
  }

  it('the raw template is answered by the unpaid lane, byte for byte as Hono answers the encoded one', async () => {
    const lane = svc.service.app.lane!;
    const laneOnly: Server = createServer((req, res) => {
      if (!lane(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => laneOnly.listen(0, '127.0.0.1', resolve));
    try {
      const laneUrl = `http://127.0.0.1:${(laneOnly.address() as AddressInfo).port}`;
      const host = new URL(svc.url).host;
      for (const endpoint of GET_ENDPOINTS) {
        const { name } = endpoint.param;
        const fromLane = await rawGet(laneUrl + concretePath(endpoint, `{${name}}`), { Host: host });
        assert.equal(fromLane.status, 402, 'the lane answers the literal template');
        const encoded = concretePath(endpoint, `%7B${name}%7D`);
        assert.equal((await rawGet(laneUrl + encoded, { Host: host })).status, 599, 'escapes go to Hono');
        const fromHono = await rawGet(svc.url + encoded);
        assert.equal(fromLane.body, fromHono.body, endpoint.path);
        assert.equal(fromLane.headers['payment-required'], fromHono.headers['payment-required']);
      }
    } finally {
      await new Promise((resolve) => laneOnly.close(resolve));
    }
  });

  it('HEAD of the template answers 402 with the offer headers, as HEAD of a subject does', async () => {
    const res = await fetch(`${svc.url}/scan/token/%7Bmint%7D`, { method: 'HEAD' });
    assert.equal(res.status, 402);
    assert.ok(res.headers.get('payment-required'));
  });

  it('the AgentCash probe (the request its checker makes for each OpenAPI path) now gets a paid 402', async () => {
    for (const endpoint of GET_ENDPOINTS) {
      // What the checker passes: the origin and the OpenAPI path, braces and all.
      const probed = await getProbe(svc.url + endpoint.path);
      assert.ok(probed.isOk());
      const get = probed.value.find((r) => r.method === 'GET');
      assert.ok(get, `${endpoint.path}: GET answered 402 or 2xx (a 400 is dropped)`);
      assert.equal(get.authHint, 'paid', endpoint.path);
      const offer = get.paymentRequiredBody as { x402Version: number; resource: { url: string } };
      assert.equal(offer.x402Version, 2, 'read from PAYMENT-REQUIRED');
      assert.equal(offer.resource.url, svc.url + endpoint.path);
    }
  });
});

describe('every other malformed parameter keeps its 400 before payment', () => {
  const cases: [string, string][] = [
    ['/scan/token/{address}', 'mint'], // another endpoint's parameter name
    ['/scan/wallet/{mint}', 'address'],
    ['/scan/token/%7Bmint', 'mint'],
    ['/scan/token/{{mint}}', 'mint'],
    ['/scan/token/%7Bmint%7Dx', 'mint'],
    ['/scan/token/:mintx', 'mint'],
    ['/scan/token/:', 'mint'],
    ['/verify/tx/%7Bmint%7D', 'signature'],
    ['/scan/program/%7BID%7D', 'id'],
  ];
  for (const [path, parameter] of cases) {
    it(`${path} → 400 naming "${parameter}", with or without a payment`, async () => {
      for (const headers of [{}, { 'X-PAYMENT': 'e30=' }, { 'PAYMENT-SIGNATURE': 'e30=' }]) {
        const answer = await rawGet(svc.url + path, headers);
        assert.equal(answer.status, 400, `${path}: ${answer.body}`);
        assert.equal(answer.headers['payment-required'], undefined, 'never asks for payment');
        const body = JSON.parse(answer.body);
        assert.equal(body.error, 'invalid_input');
        assert.equal(body.parameter, parameter);
      }
    });
  }

  it('a real subject still gets its own offer', async () => {
    const answer = await rawGet(`${svc.url}/scan/token/${EXAMPLE_ADDRESS}`);
    assert.equal(answer.status, 402);
    assert.equal(JSON.parse(answer.body).accepts[0].resource, `${svc.url}/scan/token/${EXAMPLE_ADDRESS}`);
  });
});
