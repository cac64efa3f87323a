/**
 * The paid door takes each step in the money rule's order for any transport: a malformed input,
 * a missing payment, a payment that will not be used and a shed call never reach the payment
 * gate, and each is counted where the operator looks for it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAID_ENDPOINTS, POST_ENDPOINTS } from '../../src/catalog.js';
import type { PaymentOutcome, ShedReason } from '../../src/door/metrics.js';
import { OfferBook } from '../../src/door/offers.js';
import { createPaidDoor, type Fulfil, type Knock } from '../../src/door/paid-door.js';
import { createShedder } from '../../src/door/shedding.js';
import { reasonError } from '../../src/errors.js';
import { reason } from '../../src/reasons.js';
import type { FacilitatorDirectory } from '../../src/x402/facilitators.js';
import type { PaidCall, PaymentGate } from '../../src/x402/paid-call.js';
import { refusalCode } from '../helpers/reason-code.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const token = PAID_ENDPOINTS.find((e) => e.id === 'token')!;
const simulate = POST_ENDPOINTS[0]!;

const facilitators = {
  advertised: () => ({ feePayer: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4' }),
  unavailableReason: () => '',
  version: 0,
} as unknown as FacilitatorDirectory;

/** A door whose gate records the calls it is handed (and delivers), with its counts. */
function door(options: { maxInflightPaid?: number; fulfil?: Fulfil } = {}) {
  const handed: PaidCall[] = [];
  const gate = {
    handle: async (call: PaidCall) => {
      handed.push(call);
      const response = { resource: call.payment.path, status: 200, headers: {}, body: '{}' };
      return { kind: 'deliver', response, paymentKey: 'k'.repeat(64) } as const;
    },
  } as unknown as PaymentGate;
  const counted: (PaymentOutcome | `shed:${ShedReason}`)[] = [];
  const metrics = {
    payment: (outcome: PaymentOutcome) => counted.push(outcome),
    revenue: () => {},
    shed: (reason: ShedReason) => counted.push(`shed:${reason}`),
  };
  const shedder = createShedder({
    maxInflightPaid: options.maxInflightPaid ?? 0,
    eventLoopDelayMs: 0,
    retryAfterSeconds: 7,
  });
  const offers = new OfferBook({ payTo: PAY_TO, maxTimeoutSeconds: 60, facilitators });
  const fulfil = options.fulfil ? { fulfil: { token: options.fulfil } } : {};
  return { door: createPaidDoor({ offers, gate, metrics, shedder, ...fulfil }), handed, counted, shedder };
}

function knock(input: string, payment: Knock['payment'], method = 'GET'): Knock {
  return { method, input, payment, origin: 'http://localhost', requestId: () => 'req-1', logFields: {} };
}

const PAYMENT = { transport: 2, header: 'eyJ4NDAyVmVyc2lvbiI6Mn0=' } as const;

describe('the paid door', () => {
  it('refuses a malformed input before anything else, naming the input', async () => {
    const d = door();
    const answer = await d.door.knock(token, knock('not-base58!', PAYMENT));
    assert.equal(answer.kind, 'invalid');
    assert.equal(answer.kind === 'invalid' && answer.error.details?.parameter, 'mint');
    assert.deepEqual([d.handed.length, d.counted], [0, []]);
  });

  it('offers the endpoint without payment, for the resource URL of the input', async () => {
    const d = door();
    const answer = await d.door.knock(token, knock(MINT, null));
    assert.equal(answer.kind, 'offer');
    const body = answer.kind === 'offer' ? JSON.parse(answer.offer.body) : null;
    assert.equal(body.accepts[0].resource, `http://localhost/scan/token/${MINT}`);
    assert.deepEqual([d.handed.length, d.counted], [0, []]);
  });

  it('refuses a payment it will not use (HEAD, unreadable) with the reason, counted and never handed over', async () => {
    const d = door();
    const head = await d.door.knock(token, knock(MINT, PAYMENT, 'HEAD'));
    const notAPayment = reason('payment_meta_malformed', { key: 'x402/payment' });
    const unreadable = await d.door.knock(token, knock(MINT, { unreadable: notAPayment }));
    const bodies = [head, unreadable].map((a) => (a.kind === 'offer' ? JSON.parse(a.offer.body) : a.kind));
    assert.deepEqual(bodies.map(refusalCode), ['payment_with_head', 'payment_meta_malformed']);
    assert.equal(bodies[1].error, notAPayment.text);
    assert.deepEqual([d.handed.length, d.counted], [0, ['refused', 'refused']]);
  });

  it('sheds a paid call when full before the payment is handed over, and counts it', async () => {
    const d = door({ maxInflightPaid: 1 });
    const held = d.shedder.enter();
    const answer = await d.door.knock(token, knock(MINT, PAYMENT));
    assert.equal(answer.kind, 'shed');
    assert.equal(answer.kind === 'shed' && answer.retryAfterSeconds, 7);
    assert.deepEqual([d.handed.length, d.counted], [0, ['shed:inflight']]);
    if (held.admitted) held.slot.leave();
  });

  it('counts a batch as the scans it runs: four distinct subjects fill four slots, and leave them', async () => {
    const batch = POST_ENDPOINTS.find((e) => e.id === 'batch')!;
    const [a, b, c, e] = ['11111111111111111111111111111111', MINT, PAY_TO, TOKEN_PROGRAM];
    const body = (subjects: string[]) => JSON.stringify({ kind: 'token', subjects });
    const d = door({ maxInflightPaid: 4 });
    const held = d.shedder.enter();
    const shed = await d.door.knock(batch, knock(body([a, b, c, e, a]), PAYMENT, 'POST'));
    assert.equal(shed.kind, 'shed', 'one scan in flight leaves room for three, not four');
    if (held.admitted) held.slot.leave();
    const answer = d.door.knock(batch, knock(body([a, b, c, e, a]), PAYMENT, 'POST'));
    const whileRunning = d.shedder.inflight();
    assert.equal((await answer).kind, 'deliver');
    assert.deepEqual([whileRunning, d.handed.length, d.shedder.inflight()], [4, 1, 0]);
  });

  it('hands a POST body over as the transaction it names, and gives the slot back', async () => {
    const d = door({ maxInflightPaid: 1 });
    const answer = await d.door.knock(
      simulate,
      knock(JSON.stringify(simulate.body.example), PAYMENT, 'POST'),
    );
    assert.equal(answer.kind, 'deliver');
    assert.equal(d.handed.length, 1);
    assert.match(d.handed[0]!.payment.path, /^\/simulate\/tx \(transaction sha256 [0-9a-f]{64}\)$/);
    assert.deepEqual([d.counted, d.shedder.inflight()], [['settled'], 0]);
  });

  it('never tells a payer whose payment settled that nothing was charged, when handing over fails', async () => {
    const d = door({ fulfil: async () => Promise.reject(new Error('store gone')) });
    const answer = await d.door.knock(token, knock(MINT, PAYMENT));
    assert.equal(answer.kind, 'failed');
    if (answer.kind !== 'failed') return;
    assert.equal(answer.error.reason, 'result_not_handed_over');
    assert.doesNotMatch(answer.error.message, /nothing was charged/i);
    assert.deepEqual(d.counted, ['settled']);
  });

  it('answers so even when handing over throws an error of its own that would say nothing was charged', async () => {
    const d = door({ fulfil: async () => Promise.reject(reasonError(reason('unexpected_error'))) });
    const answer = await d.door.knock(token, knock(MINT, PAYMENT));
    assert.equal(answer.kind === 'failed' && answer.error.reason, 'result_not_handed_over');
    assert.doesNotMatch(answer.kind === 'failed' ? answer.error.message : '', /nothing was charged/i);
  });
});
