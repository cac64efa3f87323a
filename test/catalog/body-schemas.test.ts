/**
 * The POST bodies are zod schemas now, and their JSON Schema is generated: what OpenAPI, Bazaar
 * and the MCP tools show must be what was published when it was written by hand, and a bad body
 * must be refused in the same words as the validator built from that published schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { POST_ENDPOINTS } from '../../src/catalog.js';
import { checkBody } from '../../src/door/admission.js';

const simulate = POST_ENDPOINTS.find((e) => e.path === '/simulate/tx')!;
const watch = POST_ENDPOINTS.find((e) => e.path === '/watch')!;
const EXAMPLE_TX = String(simulate.body.example.transaction);

/** The JSON Schemas as src/catalog.ts spelled them by hand before (commit 0007ac2). */
const PUBLISHED = {
  simulate: {
    type: 'object',
    description: 'The transaction to simulate, as a wallet would be asked to sign it.',
    properties: {
      transaction: {
        type: 'string',
        contentEncoding: 'base64',
        maxLength: 1644,
        description:
          'Base64 of the wire transaction (legacy or v0, signed or not; at most 1232 bytes). Address lookup tables are resolved; the blockhash is replaced, signatures are not checked.',
        examples: [EXAMPLE_TX],
      },
    },
    required: ['transaction'],
    additionalProperties: false,
  },
  watch: {
    type: 'object',
    description:
      'What to watch, where to send alerts and for how long. The price is hours × the price per hour.',
    properties: {
      kind: {
        type: 'string',
        enum: ['token', 'pumpfun', 'wallet', 'program'],
        description: 'What the subject is: the GET scan of that kind gives the verdict watched.',
      },
      subject: {
        type: 'string',
        pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$',
        description: 'Base58 address of the subject (a mint, a wallet or a program id).',
        examples: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
      },
      webhook: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description:
          'https URL alerts are POSTed to (Standard Webhooks). It must resolve to a public address.',
        examples: ['https://example.com/hooks/risk-scan'],
      },
      hours: {
        type: 'integer',
        minimum: 1,
        maximum: 168,
        description: 'How long to watch, in hours (1 to 168).',
        examples: [24],
      },
    },
    required: ['kind', 'subject', 'webhook', 'hours'],
    additionalProperties: false,
  },
} as const;

const ORDER = {
  kind: 'token',
  subject: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  webhook: 'https://example.com/hooks/risk-scan',
  hours: 24,
};

/** Bodies that are wrong in every way the schema decides (the reader's own checks come after). */
const BAD_ORDERS: readonly unknown[] = [
  { ...ORDER, kind: 'tx' },
  { ...ORDER, kind: 7 },
  { ...ORDER, subject: 'abc' },
  { ...ORDER, webhook: 'not a url' },
  { ...ORDER, webhook: `https://example.com/${'a'.repeat(2100)}` },
  { ...ORDER, hours: 0 },
  { ...ORDER, hours: 169 },
  { ...ORDER, hours: 1.5 },
  { ...ORDER, hours: '24' },
  { ...ORDER, extra: 1 },
  { kind: 'token' },
  {},
];

/** The 400 message the validator built from the published JSON Schema gave (body-schema.ts's wording). */
function publishedMessage(body: unknown): string {
  const issues = z.fromJSONSchema(PUBLISHED.watch as never).safeParse(body).error!.issues;
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`))
    .join('; ');
}

describe('POST bodies: zod schemas, JSON Schema generated', () => {
  it('publishes the same JSON Schema for each body as when it was written by hand', () => {
    assert.deepEqual(simulate.body.schema, PUBLISHED.simulate);
    assert.deepEqual(watch.body.schema, PUBLISHED.watch);
  });

  it('refuses a bad watch order in the words the published schema gave', () => {
    for (const body of BAD_ORDERS) {
      const checked = checkBody(watch, JSON.stringify(body));
      assert.equal(checked.ok, false, JSON.stringify(body));
      assert.equal(!checked.ok && checked.reason.text, publishedMessage(body), JSON.stringify(body));
    }
  });

  it('accepts what the published schema accepts, at hours × the price per hour', () => {
    const checked = checkBody(watch, JSON.stringify({ ...ORDER, hours: 3 }));
    assert.ok(checked.ok);
    assert.equal(checked.purchase.priceUsd, 0.03);
    assert.ok(z.fromJSONSchema(PUBLISHED.watch as never).safeParse({ ...ORDER, hours: 3 }).success);
  });
});
