/**
 * The produced result as the steps after production hold it: unsold (no receipt yet), kept as a
 * pending settlement, or sold with its receipt. Values only; the steps decide when each is made.
 */

import type { PaidCall } from './core.js';
import type { CheckedPayment } from './payment-check.js';
import type { PendingSettlement, ReceiptBasis, StoredResponse } from './payment-store.js';

/** What a receipt needs to know of the payment: its x402 version, network and payer. */
export function receiptBasis({ terms, payment }: CheckedPayment): ReceiptBasis {
  return { version: terms.version, network: terms.network, payer: payment.payer };
}

/** The response as it will be sold, before its receipt is known. */
export function unsold(call: PaidCall, body: string): StoredResponse {
  return {
    resource: call.payment.path,
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body,
  };
}

/** The produced result, kept while its settlement is under way or unknown. */
export function pendingOf(
  call: PaidCall,
  checked: CheckedPayment,
  result: { readonly body: string; readonly signature: string | null; readonly keptAt: number },
): PendingSettlement {
  return {
    response: unsold(call, result.body),
    receipt: receiptBasis(checked),
    signature: result.signature,
    blockhash: checked.payment.blockhash,
    keptAt: result.keptAt,
  };
}
