/**
 * The paid routes, generated from the catalog: the contract's GETs here, POSTs in body-routes.ts. Order of checks is the money rule:
 * a malformed parameter is refused with 400 before the caller is ever asked to pay.
 */
import type { Context, Hono } from 'hono';
import {
  atomicPrice,
  concretePath,
  GET_ENDPOINTS,
  type GetEndpoint,
  honoPath,
  type PaidEndpoint,
  POST_ENDPOINTS,
} from '../catalog.js';
import { ServiceError } from '../errors.js';
import type { RenderedOffer } from '../x402/offer.js';
import type { PaidCallOutcome } from '../x402/outcomes.js';
import type { PaidCall, PaymentGate, PresentedPayment } from '../x402/paid-call.js';
import { admitRequest } from './admission.js';
import { registerBodyEndpoint } from './body-routes.js';
import type { AppEnv } from './context.js';
import { type Logger, paymentFingerprint } from './logger.js';
import type { Metrics } from './metrics.js';
import type { OfferBook } from './offers.js';
import { requestOrigin } from './origin.js';
import { type HeaderMap, reply, replyError } from './respond.js';
import type { Shedder } from './shedding.js';

export interface PaidRouteDeps {
  readonly offers: OfferBook;
  readonly publicBaseUrl: string | null;
  /** Absent until payments are wired: every payment is then refused with a 402 that says so. */
  readonly paymentGate?: PaymentGate;
  /** Where a failed paid call's cause is logged (never shown to the caller). */
  readonly log?: Logger;
  /** Where payment outcomes and revenue are counted; absent = not counted. */
  readonly metrics?: Metrics;
  /** Refuses paid calls with 503 when saturated or shutting down; absent = no limit. */
  readonly shedder?: Shedder;
}

const NO_STORE = 'no-store';

/**
 * The payment a request carries, for `resourcePath`. `paidFor` is what the payment buys when it
 * is more than the path (a POST's body digest); by default the path itself.
 */
export function presentedPayment(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  resourcePath: string,
  paidFor: string = resourcePath,
): PresentedPayment | null {
  const v1 = c.req.header('x-payment');
  const header = v1 ?? c.req.header('payment-signature');
  if (header === undefined) return null;
  return {
    transport: v1 !== undefined ? 1 : 2,
    header,
    path: paidFor,
    resource: resourceUrl(c, deps, resourcePath),
  };
}

/** The absolute URL a 402 names as the resource: PUBLIC_BASE_URL or the request's origin, and the path. */
function resourceUrl(c: Context<AppEnv>, deps: PaidRouteDeps, resourcePath: string): string {
  return requestOrigin(deps.publicBaseUrl, c.req.url) + resourcePath;
}

/**
 * Adds a 402's own headers to `headers` (property by property: the unpaid lane passes the
 * frame's headers in, and copying objects into one another is measurably slower).
 */
export function addOfferHeaders(headers: HeaderMap, offer: RenderedOffer): HeaderMap {
  headers['Content-Type'] = 'application/json';
  headers['Cache-Control'] = NO_STORE;
  headers['PAYMENT-REQUIRED'] = offer.header;
  return headers;
}

/** The rendered offer for `resourceUrl`, with the standard prompt or `reason` as its `error`. */
export function renderOffer(
  deps: PaidRouteDeps,
  endpoint: PaidEndpoint,
  resourceUrl: string,
  reason?: string,
): RenderedOffer {
  if (reason === undefined) return deps.offers.unpaid(endpoint, resourceUrl);
  return deps.offers.refusal(endpoint, reason).render(resourceUrl);
}

/**
 * Answers 402 with the v1 body and the v2 PAYMENT-REQUIRED header for this resource. The unpaid
 * lane builds the same answer from the same kept offer and addOfferHeaders (a test compares the bytes).
 */
export function paymentRequired(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  endpoint: PaidEndpoint,
  resourcePath: string,
  reason?: string,
  extraHeaders?: HeaderMap,
): Response {
  const offer = renderOffer(deps, endpoint, resourceUrl(c, deps, resourcePath), reason);
  return reply(c, 402, offer.body, Object.assign(addOfferHeaders({}, offer), extraHeaders));
}

/** Counts a paid call's outcome (refused, settled, replayed …) and its revenue; shared by every transport. */
export function countOutcome(
  metrics: Metrics | undefined,
  endpoint: PaidEndpoint,
  outcome: PaidCallOutcome,
): void {
  if (metrics === undefined) return;
  if (outcome.kind !== 'deliver') {
    metrics.payment(outcome.kind === 'refuse' ? 'refused' : outcome.kind);
  } else if (outcome.replay === true) {
    metrics.payment('replayed');
  } else {
    metrics.payment('settled');
    metrics.revenue(endpoint.id, Number(atomicPrice(endpoint.priceUsd)));
  }
}

/** The one place a paid call's outcome becomes an HTTP response (its 402s name `resourcePath`). */
export function answerOutcome(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  endpoint: PaidEndpoint,
  resourcePath: string,
  outcome: PaidCallOutcome,
): Response {
  if (outcome.paymentKey !== null) c.env.frame.logFields.payment_key = outcome.paymentKey.slice(0, 16);
  countOutcome(deps.metrics, endpoint, outcome);
  switch (outcome.kind) {
    case 'deliver': {
      const { status, body, headers } = outcome.response;
      return reply(c, status, body, { ...headers });
    }
    case 'refuse': {
      const receipt =
        outcome.receipt === null ? undefined : { [outcome.receipt.name]: outcome.receipt.value };
      return paymentRequired(c, deps, endpoint, resourcePath, outcome.reason, receipt);
    }
    case 'pending':
      return paymentRequired(c, deps, endpoint, resourcePath, outcome.reason);
    case 'failed':
      deps.log?.warn(
        { req_id: c.env.frame.requestId, err: outcome.cause },
        'paid call failed; payment not settled',
      );
      return replyError(c, outcome.error);
  }
}

function registerEndpoint(app: Hono<AppEnv>, deps: PaidRouteDeps, endpoint: GetEndpoint): void {
  const { name } = endpoint.param;
  const prefix = honoPath(endpoint.path).replace(`/:${name}`, '');
  const missing = () => {
    throw new ServiceError('invalid_input', `${name} is missing from the path`, { parameter: name });
  };
  app.get(prefix, missing);
  app.get(`${prefix}/`, missing);
  const gate = deps.paymentGate;

  // Not async: an unpaid request is answered synchronously, and node-server then writes the 402
  // without a trip through the microtask queue. Only a presented payment returns a promise.
  app.get(honoPath(endpoint.path), (c): Response | Promise<Response> => {
    const value = c.req.param(name) ?? '';
    const resourcePath = concretePath(endpoint, value);
    const payment = presentedPayment(c, deps, resourcePath);
    const request = { method: c.req.method, value, hasPayment: payment !== null };
    const admission = admitRequest(endpoint, request, gate !== undefined);
    if (admission.kind === 'invalid') {
      throw new ServiceError('invalid_input', admission.message, { parameter: name });
    }
    if (payment === null || admission.kind === 'offer')
      return paymentRequired(c, deps, endpoint, resourcePath);
    c.env.frame.logFields.payment = paymentFingerprint(payment.header);
    if (admission.kind === 'refuse_payment' || gate === undefined) {
      const reason = admission.kind === 'refuse_payment' ? admission.reason : 'payments are not wired';
      deps.metrics?.payment('refused');
      return paymentRequired(c, deps, endpoint, resourcePath, reason);
    }
    const call = { endpoint, subject: value, payment, requestId: c.env.frame.requestId };
    return handOver(c, deps, gate, call, resourcePath);
  });
}

/**
 * Gives a call with an admitted payment to the payment core, unless the server is saturated:
 * checked before the payment is even decoded, so a refused call leaves it untouched and valid.
 */
export function handOver(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  gate: PaymentGate,
  call: PaidCall,
  resourcePath: string,
): Response | Promise<Response> {
  const slot = enterPaidCall(deps);
  if (slot.refused !== null) {
    return replyError(c, slot.refused, { 'Retry-After': String(deps.shedder!.retryAfterSeconds) });
  }
  return gate
    .handle(call)
    .then((outcome) => answerOutcome(c, deps, call.endpoint, resourcePath, outcome))
    .finally(slot.leave);
}

/**
 * A slot for one paid call on any transport, or the shed error it gets instead (counted), taken
 * before its payment is looked at; `leave` gives the slot back.
 */
export function enterPaidCall(deps: PaidRouteDeps): { readonly refused: ServiceError | null; leave(): void } {
  const entry = deps.shedder?.enter();
  if (entry === undefined) return { refused: null, leave: () => {} };
  if (!entry.admitted) {
    deps.metrics?.shed(entry.reason);
    return { refused: entry.error, leave: () => {} };
  }
  return { refused: null, leave: () => entry.slot.leave() };
}

export function registerPaidRoutes(app: Hono<AppEnv>, deps: PaidRouteDeps): void {
  for (const endpoint of GET_ENDPOINTS) registerEndpoint(app, deps, endpoint);
  for (const endpoint of POST_ENDPOINTS) registerBodyEndpoint(app, deps, endpoint);
}
