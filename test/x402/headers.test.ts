import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Reason, reason } from '../../src/reasons.js';
import { decodePaymentHeader, encodeReceipt, MAX_PAYMENT_HEADER_BYTES } from '../../src/x402/headers.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const TX = Buffer.from('tx bytes').toString('base64');

describe('payment header codec', () => {
  it('reads a v1 payload', () => {
    const out = decodePaymentHeader(
      b64({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { transaction: TX } }),
    );
    assert.ok(out.ok);
    assert.equal(out.payment.version, 1);
    assert.equal(out.payment.network, 'solana');
    assert.equal(out.payment.accepted, null);
  });

  it('reads a v2 payload, in standard or URL-safe base64', () => {
    const value = {
      x402Version: 2,
      accepted: {
        scheme: 'exact',
        network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        amount: '1',
        asset: 'A',
        payTo: 'B',
      },
      payload: { transaction: TX },
    };
    for (const text of [b64(value), Buffer.from(JSON.stringify(value)).toString('base64url')]) {
      const out = decodePaymentHeader(text);
      assert.ok(out.ok);
      assert.equal(out.payment.version, 2);
      assert.equal(out.payment.accepted?.amount, '1');
    }
  });

  const refusals: [string, string, Reason][] = [
    ['not base64', '%%%', reason('header_not_base64_json')],
    ['base64 of text', Buffer.from('hello').toString('base64'), reason('header_not_base64_json')],
    ['JSON null', b64(null), reason('version_unsupported', { version: 'null' })],
    ['version 3', b64({ x402Version: 3 }), reason('version_unsupported', { version: '3' })],
    [
      'v1 without payload',
      b64({ x402Version: 1, scheme: 'exact', network: 'solana' }),
      reason('payload_malformed', {
        path: 'payload',
        problem: 'Invalid input: expected object, received undefined',
      }),
    ],
    [
      'v1 with a non-base64 transaction',
      b64({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { transaction: 'a b' } }),
      reason('payload_malformed', { path: 'payload.transaction', problem: 'must be base64' }),
    ],
    [
      'v2 without accepted',
      b64({ x402Version: 2, payload: { transaction: TX } }),
      reason('payload_malformed', {
        path: 'accepted',
        problem: 'Invalid input: expected object, received undefined',
      }),
    ],
    ['too large', 'A'.repeat(MAX_PAYMENT_HEADER_BYTES + 1), reason('header_too_large', { bytes: 16384 })],
  ];
  for (const [name, header, expected] of refusals) {
    it(`refuses ${name} with a reason, never throws`, () => {
      const out = decodePaymentHeader(header);
      assert.equal(out.ok, false);
      if (!out.ok) assert.deepEqual(out.reason, expected);
    });
  }

  it('encodes receipts as base64 JSON', () => {
    const receipt = { success: true, transaction: 'sig', network: 'solana', payer: 'p' };
    assert.deepEqual(JSON.parse(Buffer.from(encodeReceipt(receipt), 'base64').toString()), receipt);
  });
});
