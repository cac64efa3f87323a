/**
 * The first decision about any request for a paid endpoint, taken in one place for every
 * transport (the unpaid lane, the HTTP routes, the MCP tools, all through the paid door): a rule
 * added here — a limit, a new check — cannot be skipped by one of them.
 *
 * The endpoint's own template (`/scan/token/{mint}`) is the one parameter that is not a subject
 * and still gets the offer: indexers (x402scan's checker, catalogs reading a `routeTemplate`)
 * probe it to register the endpoint. It can never be paid.
 */
import {
  type BodyReader,
  concretePath,
  type GetEndpoint,
  itemsPriceUsd,
  orderPriceUsd,
  type PaidEndpoint,
  type PostEndpoint,
} from '../catalog.js';
import { checkBatchOrder } from '../contract/batch-order.js';
import type { BodyRefusal } from '../contract/body-schema.js';
import { paramReason } from '../contract/schemas.js';
import { checkWatchOrder } from '../contract/watch-order.js';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import { checkSimulateBody } from '../scans/simulate/wire.js';

/** What one payment buys: the scan's subject, the path (or POST body) it pays for, and its price. */
export interface Purchase {
  readonly subject: string;
  readonly paidFor: string;
  readonly priceUsd: number;
  /** How many scans it runs, as the load shedder counts them: a batch's distinct subjects; 1 if absent. */
  readonly scans?: number;
}

/** The first decision about a request, GET or POST alike. */
export type Admission =
  /** A malformed parameter or body: 400, before the caller is ever asked to pay. */
  | { readonly kind: 'invalid'; readonly reason: Reason<CodeOf<400>> }
  /**
   * No payment (or the endpoint's template): the endpoint's 402 offer; `purchase` when the input
   * is a valid order priced by its units (what it would buy, at what price).
   */
  | { readonly kind: 'offer'; readonly purchase: Purchase | null }
  /** A payment that will not be touched: a 402 that says why. */
  | { readonly kind: 'refuse_payment'; readonly reason: Reason<CodeOf<402>> }
  /** A payment for the payment core, and what it buys. */
  | { readonly kind: 'pay'; readonly purchase: Purchase };

export interface AdmissionRequest {
  readonly method: string;
  /** The raw input: a GET's path parameter as given (a POST's body, for admitInput). */
  readonly value: string;
  readonly hasPayment: boolean;
}

const OFFER = { kind: 'offer', purchase: null } as const satisfies Admission;

const HEAD_TAKES_NO_PAYMENT: Admission = { kind: 'refuse_payment', reason: reason('payment_with_head') };

/** A payment presented at the template: there is no subject to scan, so it is not touched. */
function templateTakesNoPayment(endpoint: GetEndpoint): Admission {
  const { name } = endpoint.param;
  return {
    kind: 'refuse_payment',
    reason: reason('payment_at_template', { path: endpoint.path, name }),
  };
}

/**
 * Whether `value` is the endpoint's parameter as its template writes it: `{mint}` (OpenAPI, what
 * the AgentCash checker probes, percent-encoded or not) or `:mint` (the Bazaar `routeTemplate`).
 * Neither brace nor colon is base58, so no subject is ever taken for a template.
 */
export function isTemplateValue(endpoint: GetEndpoint, value: string): boolean {
  // Every subject starts with a base58 character: one comparison keeps them off the slow path.
  const first = value.charCodeAt(0);
  if (first !== 0x7b /* { */ && first !== 0x3a /* : */) return false;
  const { name } = endpoint.param;
  return value === `{${name}}` || value === `:${name}`;
}

const NOT_TAKING_PAYMENTS: Extract<Admission, { kind: 'refuse_payment' }> = {
  kind: 'refuse_payment',
  reason: reason('not_taking_payments'),
};

export function admitRequest(
  endpoint: GetEndpoint,
  request: AdmissionRequest,
  takingPayments: boolean,
): Admission {
  if (isTemplateValue(endpoint, request.value))
    return request.hasPayment ? templateTakesNoPayment(endpoint) : OFFER;
  const { name, kind } = endpoint.param;
  const problem = paramReason(name, kind, request.value);
  if (problem !== null) return { kind: 'invalid', reason: problem };
  if (!request.hasPayment) return OFFER;
  // Hono answers HEAD with the GET route. A HEAD answer has no body to carry the result, so the
  // payment is not touched: it still buys the result with GET.
  if (request.method === 'HEAD') return HEAD_TAKES_NO_PAYMENT;
  if (!takingPayments) return NOT_TAKING_PAYMENTS;
  const purchase = {
    subject: request.value,
    paidFor: concretePath(endpoint, request.value),
    priceUsd: orderPriceUsd(endpoint),
  };
  return { kind: 'pay', purchase };
}

/** What one payment at `path` buys: the transaction with this digest. */
export function paidForBody(path: string, sha256: string): string {
  return `${path} (transaction sha256 ${sha256})`;
}

/** What one payment at `path` buys: the watch order with this digest (of its canonical JSON). */
export function paidForOrder(path: string, sha256: string): string {
  return `${path} (order sha256 ${sha256})`;
}

/** What one payment at `path` buys: the batch with this digest (of its canonical JSON). */
export function paidForBatch(path: string, sha256: string): string {
  return `${path} (batch sha256 ${sha256})`;
}

/** A POST body as its endpoint reads it: what it buys, or why it is refused (400). */
export type CheckedBody = { readonly ok: true; readonly purchase: Purchase } | BodyRefusal;

/** Prices a body reader may need beyond the catalog: the operator's BATCH_DISCOUNT_PERCENT. */
type BodyReading = (endpoint: PostEndpoint, body: string, discountPercent: number) => CheckedBody;

/** A batch: priced per distinct subject at its kind's price, named by the digest of its canonical JSON. */
function readBatchOrder(endpoint: PostEndpoint, body: string, discountPercent: number): CheckedBody {
  const checked = checkBatchOrder(endpoint, body);
  if (!checked.ok) return checked;
  if (endpoint.price.per !== 'item') throw new Error(`${endpoint.path} is not priced per item`);
  const { order, distinct, canonical, sha256 } = checked;
  const priceUsd = itemsPriceUsd(endpoint.price, order.kind, distinct.length, discountPercent);
  return {
    ok: true,
    purchase: {
      subject: canonical,
      paidFor: paidForBatch(endpoint.path, sha256),
      priceUsd,
      scans: distinct.length,
    },
  };
}

/** A watch order: priced by its hours, named by the digest of its canonical JSON. */
function readWatchOrder(endpoint: PostEndpoint, body: string): CheckedBody {
  const checked = checkWatchOrder(endpoint, body);
  if (!checked.ok) return checked;
  const priceUsd = orderPriceUsd(endpoint, checked.order.hours);
  const paidFor = paidForOrder(endpoint.path, checked.sha256);
  return { ok: true, purchase: { subject: checked.canonical, paidFor, priceUsd } };
}

/** A wire transaction: one price, named by the digest of its bytes. */
function readTransaction(endpoint: PostEndpoint, body: string): CheckedBody {
  const checked = checkSimulateBody(body, endpoint.body.field);
  if (!checked.ok) return checked;
  const { base64, sha256 } = checked.transaction;
  const purchase = {
    subject: base64,
    paidFor: paidForBody(endpoint.path, sha256),
    priceUsd: orderPriceUsd(endpoint),
  };
  return { ok: true, purchase };
}

/** Each body reader the catalog names, by its name. */
const BODY_READERS: Readonly<Record<BodyReader, BodyReading>> = {
  transaction: readTransaction,
  'watch-order': readWatchOrder,
  'batch-order': readBatchOrder,
};

/**
 * A POST body as its catalog entry says to read it: what it buys (less the operator's discount on
 * a price per item), or why it is refused (400).
 */
export function checkBody(endpoint: PostEndpoint, body: string, discountPercent = 0): CheckedBody {
  return BODY_READERS[endpoint.body.reads](endpoint, body, discountPercent);
}

/**
 * The same decision for a POST with a JSON body (the unpaid lane never takes one): an empty
 * body without payment is an indexer's probe and gets the offer; any other body is checked
 * before payment, a bad one refused with 400 whether or not a payment came with it.
 */
export function admitBodyRequest(
  endpoint: PostEndpoint,
  request: { readonly body: string; readonly hasPayment: boolean },
  takingPayments: boolean,
  discountPercent = 0,
): Admission {
  if (request.body.trim() === '' && !request.hasPayment) return OFFER;
  const checked = checkBody(endpoint, request.body, discountPercent);
  if (!checked.ok) return { kind: 'invalid', reason: checked.reason };
  if (!request.hasPayment) return { kind: 'offer', purchase: checked.purchase };
  if (!takingPayments) return NOT_TAKING_PAYMENTS;
  return { kind: 'pay', purchase: checked.purchase };
}

/**
 * The admission of any endpoint's raw input: a GET's path parameter as given, or a POST's body
 * (checked against its endpoint's schema, and paid for by its digest), with the path a 402 names
 * for it.
 */
export function admitInput(
  endpoint: PaidEndpoint,
  request: AdmissionRequest,
  takingPayments: boolean,
  discountPercent = 0,
): { readonly resourcePath: string; readonly admission: Admission } {
  if (endpoint.method === 'GET') {
    const resourcePath = concretePath(endpoint, request.value);
    return { resourcePath, admission: admitRequest(endpoint, request, takingPayments) };
  }
  const body = { body: request.value, hasPayment: request.hasPayment };
  const admission = admitBodyRequest(endpoint, body, takingPayments, discountPercent);
  return { resourcePath: endpoint.path, admission };
}
