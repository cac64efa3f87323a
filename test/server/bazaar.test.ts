/**
 * Every 402 offer declares the Bazaar discovery extension (coinbase/x402
 * specs/extensions/bazaar.md) as `@x402/extensions` validates and catalogs it: one catalog row
 * per endpoint, keyed by its route template, whatever the subject asked for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import {
  type DiscoveryExtension,
  extractDiscoveryInfo,
  extractDiscoveryInfoV1,
  isDiscoverableV1,
  isValidIconUrl,
  isValidRouteTemplate,
  sanitizeResourceServiceMetadata,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from '@x402/extensions/bazaar';
import bs58 from 'bs58';
import { concretePath, GET_ENDPOINTS, type GetEndpoint, honoPath } from '../../src/catalog.js';
import { ScanResultSchema } from '../../src/contract/schemas.js';
import { BAZAAR_TAGS, serviceMetadata } from '../../src/x402/bazaar.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

let stub: FacilitatorStub;
let svc: TestService;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  svc = await startTestService({ FACILITATOR_URLS: stub.url });
});
after(async () => {
  await svc.close();
  await stub.close();
});

/** A valid subject other than the documented example. */
function otherSubject(endpoint: GetEndpoint): string {
  return bs58.encode(Buffer.alloc(endpoint.param.kind === 'signature' ? 64 : 32, 7));
}

async function offerFor(endpoint: GetEndpoint, subject: string) {
  const res = await fetch(svc.url + concretePath(endpoint, subject));
  assert.equal(res.status, 402);
  const header = res.headers.get('payment-required');
  assert.ok(header, 'PAYMENT-REQUIRED header present');
  return { v2: decodePaymentRequiredHeader(header), v1: await jsonOf(res) };
}

describe('Bazaar discovery extension on the 402 offer', () => {
  for (const endpoint of GET_ENDPOINTS) {
    it(`${endpoint.path}: the v2 offer's extension passes @x402/extensions validation`, async () => {
      const { v2, v1 } = await offerFor(endpoint, endpoint.param.example);
      const bazaar = v2.extensions?.bazaar as DiscoveryExtension & { routeTemplate?: string };
      assert.ok(bazaar, 'extensions.bazaar present');
      assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true });
      assert.deepEqual(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>), {
        valid: true,
      });

      // Input: a GET with the endpoint's one path parameter, and its schema.
      const input = bazaar.info.input as Record<string, unknown>;
      assert.equal(input.type, 'http');
      assert.equal(input.method, 'GET');
      assert.deepEqual(input.pathParams, { [endpoint.param.name]: endpoint.param.example });
      const inputSchema = (bazaar.schema.properties.input.properties as Record<string, any>).pathParams;
      assert.deepEqual(inputSchema.required, [endpoint.param.name]);
      assert.equal(inputSchema.properties[endpoint.param.name].type, 'string');

      // The catalog key.
      assert.equal(bazaar.routeTemplate, honoPath(endpoint.path));
      assert.ok(isValidRouteTemplate(bazaar.routeTemplate));

      // Output: the ScanResult schema (the one the v1 outputSchema carries) and an example of it.
      const output = bazaar.info.output as { type: string; example: unknown };
      assert.equal(output.type, 'json');
      assert.ok(ScanResultSchema.safeParse(output.example).success, 'example is a ScanResult');
      const outputSchema = (bazaar.schema.properties.output!.properties as Record<string, any>).example;
      assert.deepEqual(outputSchema, v1.accepts[0].outputSchema.output);
      assert.deepEqual(
        Object.keys(outputSchema.properties).sort(),
        Object.keys(ScanResultSchema.shape).sort(),
      );

      // Service metadata on `resource`, within the spec's limits (no icon for a loopback origin).
      assert.deepEqual(sanitizeResourceServiceMetadata(v2.resource), {
        serviceName: 'Solana Risk Scan',
        tags: [...BAZAAR_TAGS],
      });
    });

    it(`${endpoint.path}: a facilitator catalogs every subject under one row`, async () => {
      const rows = [];
      for (const subject of [endpoint.param.example, otherSubject(endpoint)]) {
        const { v2 } = await offerFor(endpoint, subject);
        const accepted = v2.accepts[0] as PaymentRequirements;
        const payload = {
          x402Version: 2,
          resource: v2.resource,
          accepted,
          payload: {},
          extensions: v2.extensions,
        } as PaymentPayload;
        const row = extractDiscoveryInfo(payload, accepted);
        assert.ok(row, 'discovered');
        rows.push(row);
      }
      const [first, second] = rows;
      assert.equal(first!.resourceUrl, svc.url + honoPath(endpoint.path));
      assert.equal(second!.resourceUrl, first!.resourceUrl);
      assert.deepEqual(second!.discoveryInfo, first!.discoveryInfo);
      assert.equal(first!.serviceName, 'Solana Risk Scan');
    });

    it(`${endpoint.path}: the v1 body's outputSchema is discoverable as a GET`, async () => {
      const { v1 } = await offerFor(endpoint, endpoint.param.example);
      const requirement = v1.accepts[0];
      assert.ok(isDiscoverableV1(requirement));
      const info = extractDiscoveryInfoV1(requirement);
      assert.ok(info);
      assert.equal(info.input.type, 'http');
      assert.equal((info.input as { method?: string }).method, 'GET');
    });
  }

  it('names the icon only from a public origin the spec accepts', () => {
    const withIcon = serviceMetadata('https://risk-scan.example.com');
    assert.equal(withIcon.iconUrl, 'https://risk-scan.example.com/favicon.svg');
    assert.ok(isValidIconUrl(withIcon.iconUrl));
    assert.equal(serviceMetadata('http://127.0.0.1:8402').iconUrl, undefined);
    assert.equal(serviceMetadata(null).iconUrl, undefined);
    assert.ok(withIcon.serviceName.length <= 32 && withIcon.tags.length <= 5);
    assert.ok(withIcon.tags.every((tag) => tag.length > 0 && tag.length <= 32));
  });
});
