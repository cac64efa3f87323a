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
const batch = POST_ENDPOINTS.find((e) => e.path === '/scan/batch')!;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
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

describe('POST /scan/batch: its body read before payment', () => {
  it('prices the distinct subjects at the kind’s single price, less the discount, and names the order by its canonical digest', () => {
    const order = { kind: 'token', subjects: [USDC, USDT, USDC] };
    const checked = checkBody(batch, JSON.stringify(order));
    assert.ok(checked.ok);
    assert.equal(checked.purchase.priceUsd, 0.6, 'two distinct tokens at 0.30');
    assert.equal(checked.purchase.subject, JSON.stringify(order));
    const spaced = checkBody(batch, `{ "subjects": ${JSON.stringify(order.subjects)},  "kind": "token" }`);
    assert.ok(spaced.ok);
    assert.equal(spaced.purchase.paidFor, checked.purchase.paidFor, 'the same order written otherwise');
    const reordered = checkBody(batch, JSON.stringify({ kind: 'token', subjects: [USDT, USDC, USDC] }));
    assert.ok(reordered.ok);
    assert.notEqual(
      reordered.purchase.paidFor,
      checked.purchase.paidFor,
      'another order: its answer is aligned otherwise',
    );
    const discounted = checkBody(batch, JSON.stringify(order), 25);
    assert.ok(discounted.ok);
    assert.equal(discounted.purchase.priceUsd, 0.45);
  });

  it('refuses, naming every item at fault: malformed addresses, a count out of 1–25, an unknown kind, a stray field', () => {
    const refusal = (body: unknown) => {
      const checked = checkBody(batch, JSON.stringify(body));
      if (checked.ok) assert.fail(`refused: ${JSON.stringify(body)}`);
      return checked.reason;
    };
    const bad = refusal({ kind: 'wallet', subjects: [USDC, 'abc', USDT, 42, ''] });
    assert.equal(bad.code, 'batch_subjects_invalid');
    assert.equal(
      bad.text,
      '3 of the subjects cannot be scanned: subjects[1] must be a base58 Solana address (32 bytes); it does not decode to 32 bytes; subjects[3] must be a string; subjects[4] must be a base58 Solana address (32 bytes); it is empty',
    );
    assert.deepEqual(refusal({ kind: 'wallet', subjects: Array(26).fill(USDC) }), {
      code: 'batch_size',
      text: 'subjects must hold 1 to 25 addresses; it holds 26',
    });
    assert.deepEqual(refusal({ kind: 'program', subjects: [USDC] }), {
      code: 'batch_kind_unknown',
      text: 'kind must be one of token, pumpfun, wallet; it is "program"',
    });
    assert.equal(refusal({ subjects: [USDC] }).code, 'batch_kind_unknown');
    assert.equal(refusal({ kind: 'token', subjects: [USDC], extra: 1 }).code, 'body_fields_invalid');
  });
});
