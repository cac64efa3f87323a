/**
 * The first decision about any request for a paid endpoint, taken in one place for every door
 * (the unpaid lane and the Hono route): a rule added here — a limit, a refusal when saturated,
 * a new check — cannot be skipped by one of them.
 */
import type { PaidEndpoint } from '../catalog.js';
import { paramProblem } from '../contract/schemas.js';

export type Admission =
  /** A malformed parameter: 400, before the caller is ever asked to pay. */
  | { readonly kind: 'invalid'; readonly message: string }
  /** No payment: the endpoint's 402 offer. */
  | { readonly kind: 'offer' }
  /** A payment that will not be touched: a 402 that says why. */
  | { readonly kind: 'refuse_payment'; readonly reason: string }
  /** A payment for the payment core. */
  | { readonly kind: 'pay' };

export interface AdmissionRequest {
  readonly method: string;
  /** The path parameter, as given. */
  readonly value: string;
  readonly hasPayment: boolean;
}

const OFFER: Admission = { kind: 'offer' };
const PAY: Admission = { kind: 'pay' };

const HEAD_TAKES_NO_PAYMENT: Admission = {
  kind: 'refuse_payment',
  reason:
    'A payment is taken only with GET: a HEAD answer has no body to deliver the result in. Nothing was charged; send this payment with GET.',
};
const NOT_TAKING_PAYMENTS: Admission = {
  kind: 'refuse_payment',
  reason: 'This server is not taking payments yet',
};

export function admitRequest(
  endpoint: PaidEndpoint,
  request: AdmissionRequest,
  takingPayments: boolean,
): Admission {
  const { name, kind } = endpoint.param;
  const problem = paramProblem(kind, request.value);
  if (problem !== null) return { kind: 'invalid', message: `${name} ${problem}` };
  if (!request.hasPayment) return OFFER;
  // Hono answers HEAD with the GET route. A HEAD answer has no body to carry the result, so the
  // payment is not touched: it still buys the result with GET.
  if (request.method === 'HEAD') return HEAD_TAKES_NO_PAYMENT;
  if (!takingPayments) return NOT_TAKING_PAYMENTS;
  return PAY;
}
