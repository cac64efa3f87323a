/**
 * The reasons table (src/reasons.ts): every code's message renders as it is written, a value
 * fills its `{name}` once, and the money rule's words are said only by the codes allowed to.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_STATUS } from '../src/errors.js';
import { REASONS, type ReasonCode, reason, reasonText } from '../src/reasons.js';
import { reasonCode } from './helpers/reason-code.js';

const CODES = Object.keys(REASONS) as ReasonCode[];

/**
 * The only codes that may say "nothing was charged" (any case): said before the payment was
 * used or sent, or when the chain shows it did not land. A pending settlement, a record that
 * could not be read and a settled but unfulfilled watch must never say it.
 */
const SAYS_NOTHING_CHARGED: ReadonlySet<ReasonCode> = new Set([
  'payment_with_head',
  'payment_meta_malformed',
  'endpoint_unavailable',
  'verify_unavailable',
  'settlement_failed',
  'payment_not_landed',
  'webhook_refused',
  'store_unwritable',
  'unexpected_error',
  'check_unavailable',
  'webhook_check_timeout',
  'busy',
  'subject_full',
  'service_full',
]);

describe('the reasons table', () => {
  it('renders each message as written, its values filled in once', () => {
    assert.equal(
      reasonText('payment_paid_for_another', { path: '/scan/wallet/{x}' }),
      'payment_used: this payment already paid for /scan/wallet/{x}; repeat that request with it to receive that result, or pay anew for this one',
    );
    assert.deepEqual(reason('payment_in_use'), {
      code: 'payment_in_use',
      text: 'payment_in_use: this payment is already being processed',
    });
  });

  it('gives every code a status the service answers, and 400/500/503 their error code', () => {
    for (const code of CODES) {
      const entry = REASONS[code];
      if (entry.status === 402) continue;
      assert.equal(ERROR_STATUS[entry.error], entry.status, code);
    }
  });

  it('finds each code again from its rendered message', () => {
    for (const code of CODES) {
      const names = [...REASONS[code].message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const values = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
      assert.equal(reasonCode(REASONS[code].message.replace(/\{(\w+)\}/g, (_, n) => values[n]!)), code);
    }
  });

  it('says "nothing was charged" only where the money rule allows it', () => {
    const saying = CODES.filter((code) => /nothing was charged/i.test(REASONS[code].message));
    assert.deepEqual(saying.sort(), [...SAYS_NOTHING_CHARGED].sort());
  });
});
