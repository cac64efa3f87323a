/**
 * POST /simulate/tx at the HTTP layer: its 402 offer (v1 body, v2 header, a Bazaar extension
 * with a JSON body input that @x402/extensions validates), a 400 with the reason before any
 * payment for every malformed body, and 405 for other methods.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  type DiscoveryExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from '@x402/extensions/bazaar';
import { POST_ENDPOINTS } from '../../src/catalog.js';
import type { ReasonCode } from '../../src/reasons.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { errorCode } from '../helpers/reason-code.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const endpoint = POST_ENDPOINTS[0]!;
const EXAMPLE = endpoint.body.example.transaction!;
/** Something a payment header would carry; it must never be looked at for a bad body. */
const SOME_PAYMENT = Buffer.from(JSON.stringify({ x402Version: 2 })).toString('base64');

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

const post = (body: string | undefined, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/simulate/tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  });

describe('POST /simulate/tx: the offer', () => {
  it('an unpaid POST of a transaction gets the 402: v1 body and v2 header for /simulate/tx at 0.05 USDC', async () => {
    const res = await post(JSON.stringify({ transaction: EXAMPLE }));
    assert.equal(res.status, 402);
    const v1 = await jsonOf(res);
    assert.equal(v1.x402Version, 1);
    const [accept] = v1.accepts;
    assert.equal(accept.resource, `${svc.url}/simulate/tx`);
    assert.equal(accept.maxAmountRequired, '50000');
    assert.equal(accept.outputSchema.input.method, 'POST');
    assert.equal(accept.outputSchema.input.bodyType, 'json');
    assert.equal(accept.outputSchema.input.bodyFields.transaction.type, 'string');
    const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    assert.equal(v2.resource.url, `${svc.url}/simulate/tx`);
    assert.equal(v2.accepts[0]!.amount, '50000');
  });

  it('an empty POST (what indexers probe) gets the same offer', async () => {
    const res = await post(undefined);
    assert.equal(res.status, 402);
    assert.ok(res.headers.get('payment-required'));
  });

  it("the v2 offer's Bazaar extension is a POST with a JSON body, valid for @x402/extensions", async () => {
    const res = await post(JSON.stringify({ transaction: EXAMPLE }));
    const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    const bazaar = v2.extensions?.bazaar as DiscoveryExtension;
    assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true });
    assert.deepEqual(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>), {
      valid: true,
    });
    const input = bazaar.info.input as Record<string, any>;
    assert.equal(input.method, 'POST');
    assert.equal(input.bodyType, 'json');
    assert.deepEqual(input.body, { transaction: EXAMPLE });
    const schema = (bazaar.schema.properties.input.properties as Record<string, any>).body;
    assert.deepEqual(schema.required, ['transaction']);
    assert.ok(schema.properties.transaction.description.length > 0);
  });
});

describe('POST /simulate/tx: bad bodies are 400 with the reason, before any payment', () => {
  const tooLongTx = Buffer.alloc(1300, 1).toString('base64');
  const cases: [string, string, ReasonCode][] = [
    ['not JSON', '{transaction:', 'body_not_json'],
    ['a JSON array', '[]', 'body_not_object'],
    ['no transaction', '{}', 'transaction_missing'],
    ['an unknown field', JSON.stringify({ transaction: EXAMPLE, extra: 1 }), 'body_fields_unknown'],
    ['not base64', JSON.stringify({ transaction: 'not base64!' }), 'transaction_not_base64'],
    ['over 1232 bytes', JSON.stringify({ transaction: tooLongTx }), 'transaction_too_large'],
    ['bytes that are no transaction', JSON.stringify({ transaction: 'AAAA' }), 'transaction_malformed'],
    ['a body over the size limit', JSON.stringify({ transaction: 'A'.repeat(4000) }), 'body_too_large'],
  ];
  for (const [what, body, code] of cases) {
    it(`${what} → 400 ${code}`, async () => {
      for (const headers of [{}, { 'PAYMENT-SIGNATURE': SOME_PAYMENT }]) {
        const res = await post(body, headers);
        const error = await jsonOf(res);
        assert.equal(errorCode(res.status, error), code, what);
        assert.equal(error.parameter, 'transaction');
        assert.equal(res.headers.get('payment-required'), null, 'no offer for a bad body');
      }
    });
  }

  it('GET /simulate/tx → 405 naming POST, as other wrong methods are answered', async () => {
    const res = await fetch(`${svc.url}/simulate/tx`);
    assert.equal(res.status, 405);
    assert.match(res.headers.get('allow') ?? '', /POST/);
    assert.equal((await jsonOf(res)).error, 'method_not_allowed');
  });

  it('a browser may POST: the preflight allows it', async () => {
    const res = await fetch(`${svc.url}/simulate/tx`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, payment-signature',
      },
    });
    assert.ok(res.status < 300);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
  });
});
