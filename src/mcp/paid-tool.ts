/**
 * MCP's side of the paid door (door/paid-door.ts), as server/paid-answers.ts is HTTP's: a tool
 * call becomes a Knock — the same admission (a bad argument is refused before any payment is
 * looked at), the same offer (the v2 offer the 402's PAYMENT-REQUIRED header carries, for the
 * same resource URL), the same shedding, gate and counting — and the door's Answer becomes a tool
 * result.
 *
 * The resource paid for is the endpoint's HTTP URL for the subject, so a payment buys one result
 * whichever transport presents it, and is given again for that subject on either. A POST
 * endpoint's tool (`simulate_tx`, `watch_subject`) takes its body's properties: its knock carries
 * the body the HTTP route would receive, so its payment buys that transaction (or watch order),
 * named by the sha256 of its wire bytes (of its canonical JSON).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaidEndpoint } from '../catalog.js';
import type { Answer, PaidDoor, PresentedText } from '../door/paid-door.js';
import { reason } from '../reasons.js';
import type { RenderedOffer } from '../x402/offer.js';
import { type Receipt, storedReceipt } from '../x402/outcomes.js';
import { errorResult, PAYMENT_META_KEY, paymentRequiredResult, scanResult } from './results.js';
import { toolInput, toolName } from './tools.js';

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

/** A settlement receipt as the MCP transport carries it: the decoded JSON, under `_meta`. */
const receiptJson = (receipt: Receipt | null | undefined): Json | null =>
  receipt == null ? null : decodeBase64Json(receipt.value);

/**
 * `_meta["x402/payment"]` as the core reads a payment: base64 of its JSON, as the v2 header is;
 * null when none was presented.
 */
function presentedPayment(payment: unknown): PresentedText | null {
  if (payment === undefined) return null;
  if (typeof payment === 'string') return { transport: 2, header: payment };
  if (payment === null || typeof payment !== 'object' || Array.isArray(payment)) {
    return { unreadable: reason('payment_meta_malformed', { key: PAYMENT_META_KEY }) };
  }
  return { transport: 2, header: Buffer.from(JSON.stringify(payment)).toString('base64') };
}

function toolResult(answer: Answer): CallToolResult {
  switch (answer.kind) {
    case 'invalid':
    case 'shed':
      return errorResult(answer.error.toBody());
    case 'offer':
      return paymentRequiredResult(paymentRequiredOf(answer.offer), receiptJson(answer.receipt));
    case 'deliver': {
      const receipt = receiptJson(storedReceipt(answer.response.headers));
      return scanResult(answer.response.body, receipt, answer.signature);
    }
    case 'failed':
      return errorResult(answer.error.toBody(answer.requestId), receiptJson(answer.receipt));
  }
}

/** One call of a paid tool with `args` as its arguments and `meta` as the request's `_meta`. */
export async function callPaidTool(
  door: PaidDoor,
  site: ToolCallSite,
  endpoint: PaidEndpoint,
  args: Readonly<Record<string, unknown>>,
  meta: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  site.logFields.tool = toolName(endpoint);
  const answer = await door.knock(endpoint, {
    method: endpoint.method,
    input: toolInput(endpoint, args),
    payment: presentedPayment(meta?.[PAYMENT_META_KEY]),
    origin: site.origin,
    requestId: site.nextRequestId,
    logFields: site.logFields,
  });
  return toolResult(answer);
}
