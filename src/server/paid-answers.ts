/**
 * HTTP's side of the paid door (door/paid-door.ts): a request becomes a Knock, the door's Answer
 * becomes a response. Nothing is decided here; the GET and POST routes only say where the input is.
 */
import type { Context } from 'hono';
import type { PaidEndpoint } from '../catalog.js';
import type { Answer, Knock, PaidDoor, PresentedText } from '../door/paid-door.js';
import { SIGNATURE_HEADER, signatureHeaderValue } from '../signing/signature.js';
import type { RenderedOffer } from '../x402/offer.js';
import type { AppEnv } from './context.js';
import { requestOrigin } from './origin.js';
import { type HeaderMap, reply, replyError } from './respond.js';

export interface PaidRouteDeps {
  readonly door: PaidDoor;
  readonly publicBaseUrl: string | null;
}

const NO_STORE = 'no-store';

/** The payment header a request carries: X-PAYMENT (x402 v1) or PAYMENT-SIGNATURE (v2). */
export function presentedPayment(c: Context<AppEnv>): PresentedText | null {
  const v1 = c.req.header('x-payment');
  const header = v1 ?? c.req.header('payment-signature');
  if (header === undefined) return null;
  return { transport: v1 !== undefined ? 1 : 2, header };
}

/** The request at the door, with `input` as the endpoint's raw input (path parameter or body). */
export function knockOf(c: Context<AppEnv>, deps: PaidRouteDeps, input: string): Knock {
  const frame = c.env.frame;
  return {
    method: c.req.method,
    input,
    payment: presentedPayment(c),
    origin: requestOrigin(deps.publicBaseUrl, c.req.url),
    requestId: () => frame.requestId,
    logFields: frame.logFields,
  };
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

/**
 * The door's answer as an HTTP response. A 402 carries the v1 body and the v2 PAYMENT-REQUIRED
 * header; the unpaid lane builds the same answer from the same kept offer and addOfferHeaders
 * (a test compares the bytes).
 */
function respond(c: Context<AppEnv>, answer: Answer): Response {
  switch (answer.kind) {
    case 'invalid':
      // Thrown, as every 400 is: the app's error handler words it.
      throw answer.error;
    case 'offer': {
      const headers = addOfferHeaders({}, answer.offer);
      if (answer.receipt !== null) headers[answer.receipt.name] = answer.receipt.value;
      return reply(c, 402, answer.offer.body, headers);
    }
    case 'deliver': {
      const { status, body, headers } = answer.response;
      const signed: HeaderMap = { ...headers };
      if (answer.signature !== null) signed[SIGNATURE_HEADER] = signatureHeaderValue(answer.signature);
      return reply(c, status, body, signed);
    }
    case 'failed': {
      const receipt = answer.receipt ?? null;
      return replyError(c, answer.error, receipt === null ? {} : { [receipt.name]: receipt.value });
    }
    case 'shed':
      return replyError(c, answer.error, { 'Retry-After': String(answer.retryAfterSeconds) });
  }
}

/** Knocks for the request and answers it: synchronously unless a payment was handed over. */
export function answerPaid(
  c: Context<AppEnv>,
  deps: PaidRouteDeps,
  endpoint: PaidEndpoint,
  input: string,
): Response | Promise<Response> {
  const answer = deps.door.knock(endpoint, knockOf(c, deps, input));
  return answer instanceof Promise ? answer.then((done) => respond(c, done)) : respond(c, answer);
}
