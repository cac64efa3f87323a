/**
 * The unpaid lane answers exactly what the Hono route answers, and declines everything that
 * is not a plain unpaid GET with a valid parameter (Hono then answers it).
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { concretePath, GET_ENDPOINTS } from '../../src/catalog.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const EXAMPLES = {
  address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  signature: '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v',
} as const;

/** Headers that differ between any two answers (per request or per connection). */
const VARYING = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'content-length']);

function stableHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!VARYING.has(key)) out[key] = value;
  });
  return out;
}

/** A raw HTTP request (fetch cannot send an odd Host header or a HEAD with a body check). */
function rawGet(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let stub: FacilitatorStub;
let svc: TestService;
/** A server that answers only through the lane: 599 means the lane declined. */
let laneOnly: Server;
let laneUrl: string;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  svc = await startTestService({ FACILITATOR_URLS: stub.url });
  const lane = svc.service.app.lane!;
  laneOnly = createServer((req, res) => {
    if (!lane(req, res)) res.writeHead(599).end();
  });
  await new Promise<void>((resolve) => laneOnly.listen(0, '127.0.0.1', resolve));
  laneUrl = `http://127.0.0.1:${(laneOnly.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => laneOnly.close(resolve));
  await svc.close();
  await stub.close();
});

describe('unpaid lane', () => {
  for (const endpoint of GET_ENDPOINTS) {
    it(`${endpoint.path}: the lane's 402 is the Hono route's, header for header and byte for byte`, async () => {
      const path = concretePath(endpoint, EXAMPLES[endpoint.param.kind]);
      const viaLane = await fetch(laneUrl + path);
      assert.equal(viaLane.status, 402, 'the lane answered');
      // The same request through Hono, addressed to the same origin so `resource` is the same.
      const viaHono = await svc.service.app.request(laneUrl + path);
      assert.equal(viaHono.status, 402);
      assert.deepEqual(stableHeaders(viaLane), stableHeaders(viaHono));
      const body = await viaHono.text();
      assert.equal(await viaLane.text(), body);
      assert.match(viaLane.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(viaLane.headers.get('content-length'), String(Buffer.byteLength(body)));
    });
  }

  it('serves the real service: an unpaid request is answered by the lane, a paid one by Hono', async () => {
    const path = concretePath(GET_ENDPOINTS[0]!, EXAMPLES.address);
    const unpaid = await fetch(svc.url + path);
    assert.equal(unpaid.status, 402);
    const body = (await unpaid.json()) as { accepts: { resource: string }[] };
    assert.equal(body.accepts[0]!.resource, svc.url + path);
    // This test service takes no payments: only the Hono route says so.
    const paid = await fetch(svc.url + path, { headers: { 'X-PAYMENT': 'e30=' } });
    assert.equal(paid.status, 402);
    assert.match(((await paid.json()) as { error: string }).error, /not taking payments/);
  });

  const address = EXAMPLES.address;
  const declined: [string, string, { method?: string; headers?: Record<string, string> }?][] = [
    ['a payment header (X-PAYMENT)', `/scan/token/${address}`, { headers: { 'X-Payment': 'e30=' } }],
    [
      'a payment header (PAYMENT-SIGNATURE)',
      `/scan/token/${address}`,
      { headers: { 'payment-signature': 'e30=' } },
    ],
    ['HEAD', `/scan/token/${address}`, { method: 'HEAD' }],
    ['POST', `/scan/token/${address}`, { method: 'POST' }],
    ['OPTIONS', `/scan/token/${address}`, { method: 'OPTIONS' }],
    ['a query string', `/scan/token/${address}?x=1`],
    ['a percent-escaped parameter', `/scan/token/%45${address.slice(1)}`],
    ['a trailing slash', `/scan/token/${address}/`],
    ['a parameter that decodes to 33 bytes', `/scan/token/${'z'.repeat(44)}`],
    ['a character outside base58', `/scan/token/0${address.slice(1)}`],
    ['a signature where an address belongs', `/scan/token/${EXAMPLES.signature}`],
    ['an unknown prefix', `/scan/nothing/${address}`],
    [
      'a Host longer than a host name can be',
      `/scan/token/${address}`,
      { headers: { Host: 'h'.repeat(300) } },
    ],
    [
      'a Host header node-server would normalise',
      `/scan/token/${address}`,
      { headers: { Host: 'EXAMPLE.com' } },
    ],
  ];
  for (const [what, path, options] of declined) {
    it(`declines ${what}`, async () => {
      const res = await rawGet(laneUrl + path, options);
      assert.equal(res.status, 599, `${what} is left to Hono`);
    });
  }

  it('what it declines, the service still answers correctly through Hono', async () => {
    const bad = await rawGet(`${svc.url}/scan/token/0${address.slice(1)}`);
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).error, 'invalid_input');
    const query = await rawGet(`${svc.url}/scan/token/${address}?x=1`);
    assert.equal(query.status, 402);
    const head = await rawGet(`${svc.url}/scan/token/${address}`, { method: 'HEAD' });
    assert.equal(head.status, 402);
    assert.equal(head.body, '');
  });
});
