import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

  const refusals: [string, string, RegExp][] = [
    ['not base64', '%%%', /not base64-encoded JSON/],
    ['base64 of text', Buffer.from('hello').toString('base64'), /not base64-encoded JSON/],
    ['JSON null', b64(null), /unsupported x402Version null/],
    ['version 3', b64({ x402Version: 3 }), /unsupported x402Version 3/],
    ['v1 without payload', b64({ x402Version: 1, scheme: 'exact', network: 'solana' }), /malformed: payload/],
    [
      'v1 with a non-base64 transaction',
      b64({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { transaction: 'a b' } }),
      /malformed: payload.transaction must be base64/,
    ],
    ['v2 without accepted', b64({ x402Version: 2, payload: { transaction: TX } }), /malformed: accepted/],
    ['too large', 'A'.repeat(MAX_PAYMENT_HEADER_BYTES + 1), /larger than 16384 bytes/],
  ];
  for (const [name, header, reason] of refusals) {
    it(`refuses ${name} with a reason, never throws`, () => {
      const out = decodePaymentHeader(header);
      assert.equal(out.ok, false);
      if (!out.ok) assert.match(out.reason, reason);
    });
  }

  it('encodes receipts as base64 JSON', () => {
    const receipt = { success: true, transaction: 'sig', network: 'solana', payer: 'p' };
    assert.deepEqual(JSON.parse(Buffer.from(encodeReceipt(receipt), 'base64').toString()), receipt);
  });
});
