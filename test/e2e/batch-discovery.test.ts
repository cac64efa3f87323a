/**
 * POST /scan/batch as every discovery document and the MCP endpoint list it, read from a running
 * service: the body's schema (the kinds a batch takes, 1 to 25 addresses), the answer's schema
 * (a ScanResult per subject), and the price rule (each distinct subject at its kind's single
 * price, from one wallet to 25 pump.fun tokens), in OpenAPI, the Bazaar extension of the 402
 * (as @x402/extensions validates and catalogs it), the x402 documents, llms.txt, the agent card
 * and the MCP tool.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import {
  type DiscoveryExtension,
  extractDiscoveryInfo,
  validateDiscoveryExtension,
} from '@x402/extensions/bazaar';
import { BatchResultSchema } from '../../src/contract/batch-result.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const KINDS = ['token', 'pumpfun', 'wallet'];
const RULE = '0.02 to 0.50 USDC per item (the single scan price of its kind)';

/** The body schema as a document states it: the kinds, and 1 to 25 addresses. */
function assertBodySchema(schema: any, where: string) {
  assert.deepEqual(schema.required, ['kind', 'subjects'], where);
  assert.deepEqual(schema.properties.kind.enum, KINDS, where);
  assert.equal(schema.properties.subjects.type, 'array', where);
  assert.equal(schema.properties.subjects.minItems, 1, where);
  assert.equal(schema.properties.subjects.maxItems, 25, where);
}

describe('POST /scan/batch in discovery and over MCP', () => {
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
  const text = async (path: string) => (await fetch(svc.url + path)).text();

  it('OpenAPI: operation scanBatch, its body schema, the price rule and a dynamic price range', async () => {
    const doc = JSON.parse(await text('/openapi.json'));
    const op = doc.paths['/scan/batch'].post;
    assert.equal(op.operationId, 'scanBatch');
    assertBodySchema(op.requestBody.content['application/json'].schema, 'openapi');
    assert.ok(op.description.includes(`Price: ${RULE}`), op.description);
    assert.deepEqual(op['x-payment-info'].price, {
      mode: 'dynamic',
      currency: 'USD',
      min: '0.02',
      max: '12.50',
    });
    assert.equal(op['x-x402-price-per'], 'item');
    const answer = op.responses['200'].content['application/json'].schema;
    assert.ok(JSON.stringify(answer).includes('charged_items'), 'the BatchResult is the 200');
  });

  it('Bazaar: the 402 of an empty body carries a valid extension a facilitator catalogs as a POST', async () => {
    const res = await fetch(`${svc.url}/scan/batch`, { method: 'POST' });
    assert.equal(res.status, 402);
    const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    assert.equal(v2.accepts[0]!.amount, '20000', 'the least a batch costs: one wallet');
    const bazaar = v2.extensions?.bazaar as DiscoveryExtension;
    assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true });
    const input = bazaar.info.input as Record<string, any>;
    assert.equal(input.method, 'POST');
    assert.equal(input.bodyType, 'json');
    assert.deepEqual(input.body.kind, 'token');
    assertBodySchema((bazaar.schema.properties.input.properties as Record<string, any>).body, 'bazaar');
    const output = bazaar.info.output as { example: unknown };
    assert.ok(BatchResultSchema.safeParse(output.example).success, 'its example is a BatchResult');
    const accepted = v2.accepts[0] as PaymentRequirements;
    const payload = {
      x402Version: 2,
      resource: v2.resource,
      accepted,
      payload: {},
      extensions: v2.extensions,
    };
    const row = extractDiscoveryInfo(payload as PaymentPayload, accepted);
    assert.equal(row?.resourceUrl, `${svc.url}/scan/batch`);
  });

  it('a body sent without payment is offered at its exact price: the distinct subjects at their kind’s', async () => {
    const body = JSON.stringify({ kind: 'pumpfun', subjects: [USDC, USDC, TEST_FEE_PAYER] });
    const res = await fetch(`${svc.url}/scan/batch`, { method: 'POST', body });
    const offer = await jsonOf(res);
    assert.equal(res.status, 402);
    assert.equal(offer.accepts[0].maxAmountRequired, '1000000');
    assert.equal(offer.reason, 'payment_required_order');
    assert.match(
      offer.error,
      /^Payment required: 1\.00 USDC for this order \(0\.02 to 0\.50 USDC per item\)/,
    );
  });

  it('x402 documents: the body schema, each kind’s price and the most a batch costs', async () => {
    const discovery = JSON.parse(await text('/.well-known/x402-discovery'));
    const resource = discovery.resources.find((r: { path: string }) => r.path === '/scan/batch');
    assertBodySchema(resource.body.schema, 'x402-discovery');
    assert.deepEqual(resource.price_usd_per_item, { token: 0.3, pumpfun: 0.5, wallet: 0.02 });
    assert.equal(resource.maxAmountRequired, '12500000');
    const manifest = JSON.parse(await text('/.well-known/x402.json'));
    const item = manifest.items.find((i: { resource: { url: string } }) =>
      i.resource.url.endsWith('/scan/batch'),
    );
    assertBodySchema(item.input.body, 'x402.json');
    assert.ok(BatchResultSchema.safeParse(item.output.example).success);
  });

  it('llms.txt and the agent card give the rule; the agent card a skill with an example body', async () => {
    const llms = await text('/llms.txt');
    const line = llms.split('\n').find((l) => l.startsWith('- [POST /scan/batch]'));
    assert.ok(line?.includes(RULE), line);
    const card = JSON.parse(await text('/.well-known/agent-card.json'));
    const skill = card.skills.find((s: { id: string }) => s.id === 'scanBatch');
    assert.ok(skill.description.includes(`Price: ${RULE}`), skill.description);
    assert.match(skill.examples[0], /^POST \/scan\/batch \{"kind":"token","subjects":\[/);
  });

  it('MCP: scan_batch with the kind enum and 1 to 25 subjects, read-only, priced by its rule', async () => {
    const mcp = new Client({ name: 'batch-discovery', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
    try {
      const { tools } = await mcp.listTools();
      const tool = tools.find((t) => t.name === 'scan_batch')!;
      assertBodySchema(tool.inputSchema, 'mcp');
      assert.ok(tool.description?.includes(`Price: ${RULE}`), tool.description);
      assert.equal(tool.annotations?.readOnlyHint, true);
    } finally {
      await mcp.close();
    }
  });
});
