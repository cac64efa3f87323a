/**
 * The well-known discovery documents: /.well-known/x402.json (x402's draft well-known discovery
 * manifest), /.well-known/agent-card.json (an A2A agent card with the x402 extension, checked
 * against the A2A 0.3.0 schema), the links /.well-known/x402-discovery gained (its own fields
 * unchanged), the contact setting, and PUBLIC_BASE_URL in all of them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PaymentRequirementsV2Schema, ResourceInfoSchema } from '@x402/core/schemas';
import { z } from 'zod';
import { concretePath, GET_ENDPOINTS, honoPath, PAID_ENDPOINTS } from '../../src/catalog.js';
import { ScanResultSchema } from '../../src/contract/schemas.js';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../../src/server/discovery/context.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import {
  jsonOf,
  startTestService,
  TEST_FEE_PAYER,
  TEST_PAY_TO,
  type TestService,
} from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const X402_A2A_EXTENSION = 'https://github.com/google-a2a/a2a-x402/v0.1';

/** The A2A 0.3.0 AgentCard JSON Schema (fixtures/a2a/PROVENANCE.md). */
const AGENT_CARD_SCHEMA = JSON.parse(
  readFileSync(new URL('../../fixtures/a2a/agent-card-v0.3.0.schema.json', import.meta.url), 'utf8'),
);

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

async function document(base: string, path: string): Promise<any> {
  const res = await fetch(base + path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=60', path);
  return jsonOf(res);
}

/** The live 402 of an endpoint, as the PAYMENT-REQUIRED header carries it. */
async function liveOffer(base: string, path: string, method = 'GET') {
  const res = await fetch(base + path, { method });
  assert.equal(res.status, 402);
  return decodePaymentRequiredHeader(res.headers.get('payment-required')!);
}

describe('/.well-known/x402.json', () => {
  it('is a v2 manifest with one item per paid endpoint, in catalog order', async () => {
    const manifest = await document(svc.url, '/.well-known/x402.json');
    assert.equal(manifest.x402Version, 2);
    // Unix seconds of the rendering (not milliseconds, not a date string).
    assert.ok(Number.isInteger(manifest.lastUpdated), 'lastUpdated in whole seconds');
    assert.ok(manifest.lastUpdated > 1_700_000_000 && manifest.lastUpdated <= Date.now() / 1000);
    assert.deepEqual(
      manifest.items.map((i: any) => i.input.routeTemplate ?? `${i.input.method} ${i.resource.url}`),
      PAID_ENDPOINTS.map((e) => (e.method === 'GET' ? honoPath(e.path) : `POST ${svc.url}${e.path}`)),
    );
  });

  it('describes the POST endpoint by its JSON body schema', async () => {
    const manifest = await document(svc.url, '/.well-known/x402.json');
    const item = manifest.items.find((i: any) => i.input.method === 'POST');
    assert.equal(item.input.bodyType, 'json');
    assert.deepEqual(item.input.body.required, ['transaction']);
    assert.equal(item.input.body.properties.transaction.type, 'string');
    const live = await liveOffer(svc.url, '/simulate/tx', 'POST');
    assert.deepEqual(item.accepts, live.accepts);
  });

  it('projects each item from what the live 402 is built of: resource, accepts, bazaar input and output', async () => {
    const manifest = await document(svc.url, '/.well-known/x402.json');
    for (const [index, endpoint] of GET_ENDPOINTS.entries()) {
      const item = manifest.items[index];
      const live = await liveOffer(svc.url, concretePath(endpoint, endpoint.param.example));
      const bazaar = live.extensions!.bazaar as { routeTemplate: string };
      assert.equal(item.type, 'http');
      ResourceInfoSchema.parse(item.resource);
      assert.deepEqual(item.resource, { ...live.resource, url: svc.url + bazaar.routeTemplate });
      assert.deepEqual(item.accepts, live.accepts, 'advisory accepts = the live offer');
      for (const requirement of item.accepts) PaymentRequirementsV2Schema.parse(requirement);
      assert.equal(item.input.method, 'GET');
      assert.equal(item.input.routeTemplate, bazaar.routeTemplate);
      assert.deepEqual(item.input.pathParams.required, [endpoint.param.name]);
      assert.equal(item.input.pathParams.properties[endpoint.param.name].type, 'string');
      assert.equal(item.output.mimeType, 'application/json');
      ScanResultSchema.parse(item.output.example);
      assert.ok(item.output.schema.properties.risk_score, 'the ScanResult schema');
    }
  });

  it('names resources an indexer can probe: each item URL answers its endpoint 402', async () => {
    const manifest = await document(svc.url, '/.well-known/x402.json');
    for (const item of manifest.items) {
      const live = await liveOffer('', item.resource.url, item.input.method);
      assert.deepEqual(live.accepts, item.accepts, item.resource.url);
      assert.equal(live.resource.url, item.resource.url);
    }
  });
});

describe('/.well-known/agent-card.json', () => {
  it('passes the A2A 0.3.0 AgentCard schema, with every field the spec requires', async () => {
    const card = await document(svc.url, '/.well-known/agent-card.json');
    const result = z.fromJSONSchema(AGENT_CARD_SCHEMA).safeParse(card);
    assert.ok(result.success, JSON.stringify(result.error?.issues));
    for (const field of AGENT_CARD_SCHEMA.definitions.AgentCard.required) assert.ok(field in card, field);
    for (const skill of card.skills) {
      for (const field of AGENT_CARD_SCHEMA.definitions.AgentSkill.required) assert.ok(field in skill, field);
    }
    assert.equal(card.protocolVersion, '0.3.0');
  });

  it('declares the x402 extension as x402 specifies it for A2A, and one priced skill per paid endpoint', async () => {
    const card = await document(svc.url, '/.well-known/agent-card.json');
    const x402 = card.capabilities.extensions.find((e: { uri: string }) => e.uri === X402_A2A_EXTENSION);
    assert.ok(x402, 'the a2a-x402 extension URI');
    assert.equal(x402.required, true);
    assert.equal(x402.params.payTo, TEST_PAY_TO);
    assert.equal(x402.params.asset, USDC);
    assert.deepEqual(
      card.skills.map((s: { id: string }) => s.id),
      PAID_ENDPOINTS.map((e) => e.operationId),
    );
    const prices = {
      pumpfun: '0.50',
      token: '0.30',
      wallet: '0.02',
      tx: '0.05',
      program: '1.00',
      simulate: '0.05',
      watch: '0.01 USDC per hour',
      batch: '0.02 to 0.50 USDC per item (the single scan price of its kind)',
    } as const;
    for (const [index, endpoint] of PAID_ENDPOINTS.entries()) {
      const skill = card.skills[index];
      const price: string = prices[endpoint.id];
      const words = price.includes(' per ') ? price : `${price} USDC per call`;
      assert.ok(skill.description.includes(words), endpoint.path);
      assert.ok(skill.description.includes(`${svc.url}${endpoint.path}`), endpoint.path);
      assert.deepEqual(skill.outputModes, ['application/json']);
    }
  });

  it('names the service, its HTTP API and its MCP endpoint, with no contact configured', async () => {
    const card = await document(svc.url, '/.well-known/agent-card.json');
    assert.equal(card.name, SERVICE_NAME);
    assert.equal(card.description, SERVICE_DESCRIPTION);
    assert.equal(card.url, svc.url);
    assert.deepEqual(
      card.additionalInterfaces.map((i: { url: string }) => i.url),
      [svc.url, `${svc.url}/mcp`],
    );
    assert.equal(card.documentationUrl, `${svc.url}/docs`);
    assert.deepEqual(card.provider, { organization: SERVICE_NAME, url: svc.url });
  });
});

describe('/.well-known/x402-discovery', () => {
  it('keeps every field it had, exactly, and gains links to the OpenAPI document and the new documents', async () => {
    const { links, resources, mcp, risk_decision, ...rest } = await document(
      svc.url,
      '/.well-known/x402-discovery',
    );
    assert.equal(risk_decision.field, 'evidence.decision', 'and the decision table');
    assert.equal(mcp.url, `${svc.url}/mcp`, 'the MCP endpoint is named too');
    assert.deepEqual(rest, {
      x402Version: 1,
      name: SERVICE_NAME,
      description: SERVICE_DESCRIPTION,
      scheme: 'exact',
      network: 'solana-mainnet',
      networkAliases: ['solana', 'solana-mainnet-beta', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
      asset: { address: USDC, symbol: 'USDC', decimals: 6 },
      payTo: TEST_PAY_TO,
      facilitators: [stub.url],
      feePayer: TEST_FEE_PAYER,
      headers: {
        payment: ['X-PAYMENT', 'PAYMENT-SIGNATURE'],
        paymentRequired: 'PAYMENT-REQUIRED',
        paymentResponse: ['X-PAYMENT-RESPONSE', 'PAYMENT-RESPONSE'],
      },
      openapi: `${svc.url}/openapi.json`,
    });
    for (const [index, endpoint] of GET_ENDPOINTS.entries()) {
      assert.deepEqual(Object.keys(resources[index]), [
        'resource',
        'method',
        'path',
        'parameter',
        'price_usd',
        'maxAmountRequired',
        'description',
        'mimeType',
        'cacheTtlSeconds',
      ]);
      assert.equal(resources[index].resource, svc.url + endpoint.path);
    }
    assert.deepEqual(links, {
      openapi: `${svc.url}/openapi.json`,
      x402_manifest: `${svc.url}/.well-known/x402.json`,
      agent_card: `${svc.url}/.well-known/agent-card.json`,
      llms_txt: `${svc.url}/llms.txt`,
      signing_keys: `${svc.url}/.well-known/jwks.json`,
    });
  });
});

describe('the new documents are listed', () => {
  it('in /, /llms.txt and /openapi.json', async () => {
    const root = await document(svc.url, '/');
    assert.equal(root.links.x402_manifest, `${svc.url}/.well-known/x402.json`);
    assert.equal(root.links.agent_card, `${svc.url}/.well-known/agent-card.json`);
    const llms = await (await fetch(`${svc.url}/llms.txt`)).text();
    assert.ok(llms.includes(`(${svc.url}/.well-known/x402.json)`));
    assert.ok(llms.includes(`(${svc.url}/.well-known/agent-card.json)`));
    const openapi = await document(svc.url, '/openapi.json');
    for (const path of ['/.well-known/x402.json', '/.well-known/agent-card.json']) {
      assert.deepEqual(openapi.paths[path].get.security, [], path);
    }
  });
});

describe('CONTACT_EMAIL and PUBLIC_BASE_URL', () => {
  it('without a contact, /openapi.json keeps its contact as it was: the service itself', async () => {
    const openapi = await document(svc.url, '/openapi.json');
    assert.deepEqual(openapi.info.contact, { name: SERVICE_NAME, url: svc.url });
  });

  it('name the operator in info.contact and the agent card, and every absolute URL uses the public origin', async () => {
    const other = await startTestService({
      FACILITATOR_URLS: stub.url,
      PUBLIC_BASE_URL: 'https://scan.example.com/',
      CONTACT_EMAIL: 'ops@scan.example.com',
    });
    try {
      const base = 'https://scan.example.com';
      const openapi = await document(other.url, '/openapi.json');
      assert.deepEqual(openapi.info.contact, {
        name: SERVICE_NAME,
        url: base,
        email: 'ops@scan.example.com',
      });

      const card = await document(other.url, '/.well-known/agent-card.json');
      assert.deepEqual(card.provider, { organization: SERVICE_NAME, url: 'mailto:ops@scan.example.com' });
      assert.equal(card.url, base);
      assert.equal(card.iconUrl, `${base}/favicon.svg`);
      assert.deepEqual(
        card.additionalInterfaces.map((i: { url: string }) => i.url),
        [base, `${base}/mcp`],
      );
      assert.ok(z.fromJSONSchema(AGENT_CARD_SCHEMA).safeParse(card).success);

      const manifest = await document(other.url, '/.well-known/x402.json');
      assert.equal(manifest.items[1].resource.url, `${base}/scan/token/:mint`);
      assert.equal(manifest.items[1].resource.iconUrl, `${base}/favicon.svg`, 'as the live offer names it');
      assert.ok(!JSON.stringify(manifest).includes('ops@'), 'the manifest format has no place for a contact');

      const discovery = await document(other.url, '/.well-known/x402-discovery');
      assert.equal(discovery.links.agent_card, `${base}/.well-known/agent-card.json`);
    } finally {
      await other.close();
    }
  });
});
