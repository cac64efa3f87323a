/**
 * The five paid GET routes, generated from the catalog. Order of checks is the money rule:
 * a malformed parameter is refused with 400 before the caller is ever asked to pay.
 */
import type { Context, Hono } from 'hono';
import { concretePath, honoPath, PAID_ENDPOINTS, type PaidEndpoint } from '../catalog.js';
import { paramProblem } from '../contract/schemas.js';
import { ServiceError } from '../errors.js';
import type { RenderedOffer } from '../x402/offer.js';
import type { AppEnv } from './context.js';
import { paymentFingerprint } from './logger.js';
import type { OfferBook } from './offers.js';
import { requestOrigin } from './origin.js';
import { type HeaderMap, reply } from './respond.js';

/** A payment found on a request, before any check of its content. */
export interface PresentedPayment {
  /** x402 transport version the header name implies: X-PAYMENT (1) or PAYMENT-SIGNATURE (2). */
  readonly transport: 1 | 2;
  readonly header: string;
  /** The path paid for (`/scan/token/<mint>`): a payment's result is given again only for it. */
  readonly path: string;
  /** The absolute resource URL the 402 offered for this request (sent on to the facilitator). */
  readonly resource: string;
}

/** Answers 402 with the endpoint's offer and the reason a payment was refused. */
export type Refuse = (reason: string, headers?: Record<string, string>) => Response;

/** Takes a request that carries a payment; answers 200 with the result, 402 or 500. */
export interface PaymentGate {
  handle(
    c: Context<AppEnv>,
    endpoint: PaidEndpoint,
    value: string,
    payment: PresentedPayment,
    refuse: Refuse,
  ): Promise<Response>;
}

export interface PaidRouteDeps {
  readonly offers: OfferBook;
  readonly publicBaseUrl: string | null;
  /** Absent until payments are wired: every payment is then refused with a 402 that says so. */
  readonly paymentGate?: PaymentGate;
}

const NO_STORE = 'no-store';

const HEAD_TAKES_NO_PAYMENT =
  'A payment is taken only with GET: a HEAD answer has no body to deliver the result in. Nothing was charged; send this payment with GET.';

function presentedPayment(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  resourcePath: string,
): PresentedPayment | null {
  const v1 = c.req.header('x-payment');
  const header = v1 ?? c.req.header('payment-signature');
  if (header === undefined) return null;
  return {
    transport: v1 !== undefined ? 1 : 2,
    header,
    path: resourcePath,
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

function registerEndpoint(app: Hono<AppEnv>, deps: PaidRouteDeps, endpoint: PaidEndpoint): void {
  const { name, kind } = endpoint.param;
  const prefix = honoPath(endpoint.path).replace(`/:${name}`, '');
  const missing = () => {
    throw new ServiceError('invalid_input', `${name} is missing from the path`, { parameter: name });
  };
  app.get(prefix, missing);
  app.get(`${prefix}/`, missing);

  // Not async: an unpaid request is answered synchronously, and node-server then writes the 402
  // without a trip through the microtask queue. Only a presented payment returns a promise.
  app.get(honoPath(endpoint.path), (c) => {
    const value = c.req.param(name) ?? '';
    const problem = paramProblem(kind, value);
    if (problem !== null) throw new ServiceError('invalid_input', `${name} ${problem}`, { parameter: name });
    const resourcePath = concretePath(endpoint, value);
    const payment = presentedPayment(c, deps, resourcePath);
    if (payment === null) return paymentRequired(c, deps, endpoint, resourcePath);
    c.env.frame.logFields.payment = paymentFingerprint(payment.header);
    // Hono answers HEAD with the GET route. A HEAD answer has no body to carry the result, so
    // the payment is not touched: it still buys the result with GET.
    if (c.req.method === 'HEAD') {
      return paymentRequired(c, deps, endpoint, resourcePath, HEAD_TAKES_NO_PAYMENT);
    }
    if (deps.paymentGate === undefined) {
      return paymentRequired(c, deps, endpoint, resourcePath, 'This server is not taking payments yet');
    }
    const refuse: Refuse = (reason, headers) =>
      paymentRequired(c, deps, endpoint, resourcePath, reason, headers);
    return deps.paymentGate.handle(c, endpoint, value, payment, refuse);
  });
}

export function registerPaidRoutes(app: Hono<AppEnv>, deps: PaidRouteDeps): void {
  for (const endpoint of PAID_ENDPOINTS) registerEndpoint(app, deps, endpoint);
}
