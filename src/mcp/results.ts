/**
 * Tool results as the x402 MCP transport words them (x402-foundation/x402
 * `specs/transports-v2/mcp.md`, tool-result binding): a payment that is required or refused is a
 * result with `isError: true` whose `structuredContent` is the v2 PaymentRequired and whose
 * `content[0].text` is the same object as JSON; a delivered result carries the settlement
 * response in `_meta["x402/payment-response"]`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BodySignature } from '../signing/signature.js';

export const PAYMENT_META_KEY = 'x402/payment';
export const PAYMENT_RESPONSE_META_KEY = 'x402/payment-response';
/**
 * The signature of `content[0].text` (its UTF-8 bytes), as the HTTP X-Signature header carries it
 * for the body: `{ alg: "ed25519", keyid, sig }` (docs/signing.md).
 */
export const SIGNATURE_META_KEY = 'risk-scan/signature';

type Json = Record<string, unknown>;

/** The PaymentRequired result: no payment, or a payment that bought nothing (`receipt` when settled). */
export function paymentRequiredResult(paymentRequired: Json, receipt: Json | null = null): CallToolResult {
  return {
    isError: true,
    structuredContent: paymentRequired,
    content: [{ type: 'text', text: JSON.stringify(paymentRequired) }],
    ...(receipt === null ? {} : { _meta: { [PAYMENT_RESPONSE_META_KEY]: receipt } }),
  };
}

/** A paid result: the ScanResult as structured content and as text, with its settlement and signature. */
export function scanResult(
  body: string,
  receipt: Json | null,
  signature: BodySignature | null = null,
): CallToolResult {
  const meta: Json = {
    ...(receipt === null ? {} : { [PAYMENT_RESPONSE_META_KEY]: receipt }),
    ...(signature === null ? {} : { [SIGNATURE_META_KEY]: { alg: 'ed25519', ...signature } }),
  };
  return {
    structuredContent: JSON.parse(body) as Json,
    content: [{ type: 'text', text: body }],
    ...(Object.keys(meta).length === 0 ? {} : { _meta: meta }),
  };
}

/**
 * An error, as the HTTP error body (`error`, `message`, …): no payment matter (bad argument,
 * failed scan), or — with `receipt` — a payment settled whose work waits for its replay.
 */
export function errorResult(
  body: Readonly<Record<string, string | number>>,
  receipt: Json | null = null,
): CallToolResult {
  return {
    isError: true,
    structuredContent: { ...body },
    content: [{ type: 'text', text: `${body.error}: ${body.message}` }],
    ...(receipt === null ? {} : { _meta: { [PAYMENT_RESPONSE_META_KEY]: receipt } }),
  };
}
