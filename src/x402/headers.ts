/**
 * Codecs of the x402 payment headers: X-PAYMENT (v1) and PAYMENT-SIGNATURE (v2) in,
 * X-PAYMENT-RESPONSE (v1) and PAYMENT-RESPONSE (v2) out. Decoding never throws: a header
 * that cannot be read is a reason for a 402, not a crash.
 */
import { z } from 'zod';
import { type CodeOf, type Reason, reason } from '../reasons.js';

/** Real payments are 1–2 KiB; anything far larger is refused before it is parsed. */
export const MAX_PAYMENT_HEADER_BYTES = 16 * 1024;

const base64Text = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');

const V1PayloadSchema = z.object({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: z.object({ transaction: base64Text }),
});

const V2PayloadSchema = z.object({
  x402Version: z.literal(2),
  accepted: z.object({
    scheme: z.string(),
    network: z.string(),
    amount: z.string(),
    asset: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number().optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
  }),
  payload: z.object({ transaction: base64Text }),
  resource: z.unknown().optional(),
  extensions: z.unknown().optional(),
});

export type V1Payment = z.infer<typeof V1PayloadSchema>;
export type V2Payment = z.infer<typeof V2PayloadSchema>;
export type PaymentPayload = V1Payment | V2Payment;

/** What a payment offers, the same for both versions. */
export interface PaymentTerms {
  readonly version: 1 | 2;
  readonly scheme: string;
  readonly network: string;
  /** v2 only: what the client says it accepted (checked against the transaction too). */
  readonly accepted: V2Payment['accepted'] | null;
  /** base64 of the partially signed transaction. */
  readonly transaction: string;
  readonly raw: PaymentPayload;
}

export type DecodeOutcome = { ok: true; payment: PaymentTerms } | { ok: false; reason: Reason<CodeOf<402>> };

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;

function decodeBase64Json(header: string): unknown {
  const text = header.trim();
  if (!STANDARD_BASE64.test(text) && !URL_SAFE_BASE64.test(text)) throw new Error('not base64');
  const json = Buffer.from(text, STANDARD_BASE64.test(text) ? 'base64' : 'base64url').toString('utf8');
  return JSON.parse(json);
}

/** A payload that passed its version's schema, as the payment core reads it. */
function termsOf(p: V1Payment | V2Payment): PaymentTerms {
  if (p.x402Version === 1) {
    const { scheme, network } = p;
    return { version: 1, scheme, network, accepted: null, transaction: p.payload.transaction, raw: p };
  }
  const { scheme, network } = p.accepted;
  return { version: 2, scheme, network, accepted: p.accepted, transaction: p.payload.transaction, raw: p };
}

const refused = (why: Reason<CodeOf<402>>): DecodeOutcome => ({ ok: false, reason: why });

export function decodePaymentHeader(header: string): DecodeOutcome {
  if (header.length > MAX_PAYMENT_HEADER_BYTES) {
    return refused(reason('header_too_large', { bytes: MAX_PAYMENT_HEADER_BYTES }));
  }
  let value: unknown;
  try {
    value = decodeBase64Json(header);
  } catch {
    return refused(reason('header_not_base64_json'));
  }
  const version = (value as { x402Version?: unknown } | null)?.x402Version;
  if (version !== 1 && version !== 2) {
    return refused(reason('version_unsupported', { version: JSON.stringify(version ?? null) }));
  }
  const parsed = (version === 1 ? V1PayloadSchema : V2PayloadSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || 'payload';
    return refused(reason('payload_malformed', { path, problem: `${issue?.message}` }));
  }
  return { ok: true, payment: termsOf(parsed.data) };
}

/** The settlement result a client reads from X-PAYMENT-RESPONSE / PAYMENT-RESPONSE. */
export interface SettlementReceipt {
  readonly success: boolean;
  readonly transaction: string;
  readonly network: string;
  readonly payer?: string;
  readonly errorReason?: string;
}

export function encodeReceipt(receipt: SettlementReceipt): string {
  return Buffer.from(JSON.stringify(receipt)).toString('base64');
}

/** Header name the receipt travels in: the one matching how the client paid. */
export function receiptHeaderName(version: 1 | 2): 'X-PAYMENT-RESPONSE' | 'PAYMENT-RESPONSE' {
  return version === 1 ? 'X-PAYMENT-RESPONSE' : 'PAYMENT-RESPONSE';
}
