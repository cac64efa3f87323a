/**
 * What a paid call ends in, as values any transport can render: HTTP turns them into
 * 200 / 402 / 500 responses, MCP into tool results. Nothing here knows a transport.
 */
import { reasonError, type ServiceError } from '../errors.js';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import { encodeReceipt, receiptHeaderName, type SettlementReceipt } from './headers.js';
import type { ClaimRecord, ReceiptBasis, StoredResponse } from './payment-store.js';

/** The settlement receipt a client reads (X-PAYMENT-RESPONSE for v1, PAYMENT-RESPONSE for v2). */
export interface Receipt {
  readonly name: 'X-PAYMENT-RESPONSE' | 'PAYMENT-RESPONSE';
  readonly value: string;
}

/** The settlement receipt among a kept response's headers, as it was handed over with it. */
export function storedReceipt(headers: Readonly<Record<string, string>>): Receipt | null {
  for (const name of ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'] as const) {
    const value = headers[name];
    if (value !== undefined) return { name, value };
  }
  return null;
}

export type PaidCallOutcome =
  /** The result, exactly as stored (its receipt among its headers); `replay` when sold before. */
  | {
      readonly kind: 'deliver';
      readonly response: StoredResponse;
      readonly paymentKey: string;
      readonly replay?: true;
    }
  /** A 402: the payment buys nothing (now); `code` says why, `reason` in words. */
  | {
      readonly kind: 'refuse';
      readonly code: CodeOf<402>;
      readonly reason: string;
      readonly receipt: Receipt | null;
      readonly paymentKey: string | null;
    }
  /** A 402: the payment may still land; the result is kept for it. */
  | {
      readonly kind: 'pending';
      readonly code: CodeOf<402>;
      readonly reason: string;
      readonly paymentKey: string;
    }
  /** A 500: nothing was settled. `cause` is for the operator's log, never the caller. */
  | {
      readonly kind: 'failed';
      readonly error: ServiceError;
      readonly cause: unknown;
      readonly paymentKey: string | null;
    };

/** `replay`: the result of a payment already sold, delivered again. */
export const deliver = (response: StoredResponse, paymentKey: string, replay = false): PaidCallOutcome =>
  replay ? { kind: 'deliver', response, paymentKey, replay } : { kind: 'deliver', response, paymentKey };

export const refusal = (
  why: Reason<CodeOf<402>>,
  paymentKey: string | null,
  receipt: Receipt | null = null,
): PaidCallOutcome => ({ kind: 'refuse', code: why.code, reason: why.text, receipt, paymentKey });

export const failed = (error: ServiceError, cause: unknown, paymentKey: string | null): PaidCallOutcome => ({
  kind: 'failed',
  error,
  cause,
  paymentKey,
});

/** The payment may still land; the result is kept for it. */
export const pendingOutcome = (
  paymentKey: string,
  why: Reason<'settlement_unconfirmed' | 'sale_unrecorded'> = reason('settlement_unconfirmed'),
): PaidCallOutcome => ({ kind: 'pending', code: why.code, reason: why.text, paymentKey });

export const SCAN_FAILED = () => reasonError(reason('scan_failed'));

/** The store failed before the settle call: this request settled nothing. */
export const STORE_UNAVAILABLE = () => reasonError(reason('store_unwritable'));

/**
 * The store could not say what became of the payment. This request used it for nothing, but an
 * earlier one may have: nothing is said about money, and the same payment is to be presented
 * again (a result it bought is kept for it).
 */
export const STORE_UNREADABLE = () => reasonError(reason('store_unreadable'));

export function receipt(basis: ReceiptBasis, settled: Omit<SettlementReceipt, 'network' | 'payer'>): Receipt {
  return {
    name: receiptHeaderName(basis.version),
    value: encodeReceipt({ ...settled, network: basis.network, payer: basis.payer }),
  };
}

export function withReceipt(response: StoredResponse, r: Receipt): StoredResponse {
  return { ...response, headers: { ...response.headers, [r.name]: r.value } };
}

/** What the payment core does with its claim once a step has decided. */
export type Decision =
  /** Give the claim back: nothing moved, the payment may be used again. */
  | { readonly kind: 'release'; readonly outcome: PaidCallOutcome }
  /**
   * Record what the claim became. `ifClaimLost` answers when the store shows the claim is no
   * longer this request's: the store, not the chain, says who sold this payment.
   */
  | {
      readonly kind: 'record';
      readonly record: ClaimRecord;
      readonly outcome: PaidCallOutcome;
      readonly ifClaimLost: PaidCallOutcome;
    };

export const release = (outcome: PaidCallOutcome): Decision => ({ kind: 'release', outcome });

export const record = (r: ClaimRecord, outcome: PaidCallOutcome, ifClaimLost = outcome): Decision => ({
  kind: 'record',
  record: r,
  outcome,
  ifClaimLost,
});
