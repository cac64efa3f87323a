/**
 * The MCP adapter of the payment core, as paid-routes.ts is its HTTP adapter: the same admission
 * (a bad argument is refused before any payment is looked at), the same offer (the v2 offer the
 * 402's PAYMENT-REQUIRED header carries, for the same resource URL), the same core
 * (handlePaidCall through the gate) — only the rendering differs: outcomes become tool results.
 *
 * The resource paid for is the endpoint's HTTP URL for the subject, so a payment buys one result
 * whichever transport presents it, and is given again for that subject on either. A POST
 * endpoint's tool (`simulate_tx`) takes its body's one field: its payment buys that transaction,
 * named by the sha256 of its wire bytes exactly as the HTTP route names it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { concretePath, type PaidEndpoint } from '../catalog.js';
import { ServiceError } from '../errors.js';
import { type Admission, admitBodyRequest, admitRequest } from '../server/admission.js';
import { paidForBody } from '../server/body-routes.js';
import { paymentFingerprint } from '../server/logger.js';
import { countOutcome, enterPaidCall, type PaidRouteDeps, renderOffer } from '../server/paid-routes.js';
import type { RenderedOffer } from '../x402/offer.js';
import type { PaidCallOutcome } from '../x402/outcomes.js';
import type { PresentedPayment } from '../x402/paid-call.js';
import { errorResult, PAYMENT_META_KEY, paymentRequiredResult, scanResult } from './results.js';
import { argumentName, toolName } from './tools.js';

/** What one tool call knows of the HTTP request that carried it. */
export interface ToolCallSite {
  /** PUBLIC_BASE_URL or the request's origin: resource URLs are built on it. */
  readonly origin: string;
  /** A new id per paid call: it holds the payment's claim and becomes the result's request_id. */
  nextRequestId(): string;
  /** Fields for the request's log line (the tool, the payment's key). */
  readonly logFields: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const decodeBase64Json = (text: string): Json => JSON.parse(Buffer.from(text, 'base64').toString('utf8'));

/** The v2 PaymentRequired object of a rendered offer: its PAYMENT-REQUIRED header, decoded. */
const paymentRequiredOf = (offer: RenderedOffer): Json => decodeBase64Json(offer.header);

/** The settlement response stored with a result (under the header name of the payment's version). */
function storedReceipt(headers: Readonly<Record<string, string>>): Json | null {
  const value = headers['PAYMENT-RESPONSE'] ?? headers['X-PAYMENT-RESPONSE'];
  return value === undefined ? null : decodeBase64Json(value);
}

/** `_meta["x402/payment"]` as the core reads a payment: base64 of its JSON, as the v2 header is. */
function paymentText(payment: unknown): string | null {
  if (typeof payment === 'string') return payment;
  if (payment === null || typeof payment !== 'object' || Array.isArray(payment)) return null;
  return Buffer.from(JSON.stringify(payment)).toString('base64');
}

function outcomeResult(
  deps: PaidRouteDeps,
  endpoint: PaidEndpoint,
  resourceUrl: string,
  outcome: PaidCallOutcome,
  requestId: string,
): CallToolResult {
  countOutcome(deps.metrics, endpoint, outcome);
  switch (outcome.kind) {
    case 'deliver':
      return scanResult(outcome.response.body, storedReceipt(outcome.response.headers));
    case 'refuse':
    case 'pending': {
      const offer = paymentRequiredOf(renderOffer(deps, endpoint, resourceUrl, outcome.reason));
      const receipt = outcome.kind === 'refuse' && outcome.receipt !== null ? outcome.receipt.value : null;
      return paymentRequiredResult(offer, receipt === null ? null : decodeBase64Json(receipt));
    }
    case 'failed':
      deps.log?.warn({ req_id: requestId, err: outcome.cause }, 'paid MCP call failed; payment not settled');
      return errorResult(outcome.error.toBody(requestId));
  }
}

/** What an admitted call buys: the scan's subject, and what its payment pays for. */
interface Purchase {
  readonly subject: string;
  readonly paidFor: string;
}

type ToolAdmission =
  | Exclude<Admission, { kind: 'pay' }>
  | { readonly kind: 'pay'; readonly purchase: Purchase };

/**
 * The HTTP route's own admission of the tool's argument: a GET's path parameter, or a POST's
 * body `{"<field>": value}` (checked as a transaction, and paid for by its sha256).
 */
function admitTool(
  endpoint: PaidEndpoint,
  value: string,
  hasPayment: boolean,
  takingPayments: boolean,
): { readonly resourcePath: string; readonly admission: ToolAdmission } {
  if (endpoint.method === 'GET') {
    const resourcePath = concretePath(endpoint, value);
    const request = { method: 'GET', value, hasPayment };
    const admission = admitRequest(endpoint, request, takingPayments);
    if (admission.kind !== 'pay') return { resourcePath, admission };
    return {
      resourcePath,
      admission: { kind: 'pay', purchase: { subject: value, paidFor: resourcePath } },
    };
  }
  const resourcePath = endpoint.path;
  const body = JSON.stringify({ [endpoint.body.field]: value });
  const admission = admitBodyRequest(endpoint, { body, hasPayment }, takingPayments);
  if (admission.kind !== 'pay') return { resourcePath, admission };
  const { base64, sha256 } = admission.transaction;
  const purchase = { subject: base64, paidFor: paidForBody(endpoint.path, sha256) };
  return { resourcePath, admission: { kind: 'pay', purchase } };
}

/** One call of a paid tool with `value` as its argument and `meta` as the request's `_meta`. */
export async function callPaidTool(
  deps: PaidRouteDeps,
  site: ToolCallSite,
  endpoint: PaidEndpoint,
  value: string,
  meta: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const presented = meta?.[PAYMENT_META_KEY];
  site.logFields.tool = toolName(endpoint);
  const gate = deps.paymentGate;
  const { resourcePath, admission } = admitTool(endpoint, value, presented !== undefined, gate !== undefined);
  if (admission.kind === 'invalid') {
    const error = new ServiceError('invalid_input', admission.message, { parameter: argumentName(endpoint) });
    return errorResult(error.toBody());
  }
  const resourceUrl = site.origin + resourcePath;
  const offer = (reason?: string) =>
    paymentRequiredResult(paymentRequiredOf(renderOffer(deps, endpoint, resourceUrl, reason)));
  if (admission.kind === 'offer') return offer();
  const refused = (reason: string) => {
    deps.metrics?.payment('refused');
    return offer(reason);
  };
  if (admission.kind === 'refuse_payment') return refused(admission.reason);
  if (gate === undefined) return refused('payments are not wired');
  const header = paymentText(presented);
  if (header === null) {
    return refused(`_meta["${PAYMENT_META_KEY}"] must be an x402 PaymentPayload object; nothing was charged`);
  }
  // Shed as the HTTP route sheds (overload, shutdown): before the payment is claimed or verified.
  const slot = enterPaidCall(deps);
  if (slot.refused !== null) return errorResult(slot.refused.toBody());
  try {
    const { subject, paidFor } = admission.purchase;
    const payment: PresentedPayment = { transport: 2, header, path: paidFor, resource: resourceUrl };
    const requestId = site.nextRequestId();
    site.logFields.payment = paymentFingerprint(header);
    const outcome = await gate.handle({ endpoint, subject, payment, requestId });
    if (outcome.paymentKey !== null) site.logFields.payment_key = outcome.paymentKey.slice(0, 16);
    return outcomeResult(deps, endpoint, resourceUrl, outcome, requestId);
  } finally {
    slot.leave();
  }
}
