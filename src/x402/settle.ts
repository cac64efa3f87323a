/**
 * The settle step: only a produced and kept result is settled. The facilitator's answer is
 * judged against the chain (settlement.ts), and becomes a decision: sold, refused with nothing
 * charged, spent elsewhere, or pending. A payment left pending is looked up again here too.
 */
import { reason } from '../reasons.js';
import type { PaidCall, PaymentCore } from './core.js';
import { facilitatorCall } from './facilitator-call.js';
import { FacilitatorError, type SettleAnswer } from './facilitator-client.js';
import { pendingOf, receiptBasis, unsold } from './kept-result.js';
import {
  type Decision,
  deliver,
  pendingOutcome,
  type Receipt,
  receipt,
  record,
  refusal,
  release,
  withReceipt,
} from './outcomes.js';
import type { CheckedPayment } from './payment-check.js';
import type { PendingSettlement, StoredResponse } from './payment-store.js';
import { findOnChain, judgeSettlement, type SettlementVerdict } from './settlement.js';

/** A produced result, with the call and the payment it was made for. */
interface MadeResult {
  readonly call: PaidCall;
  readonly checked: CheckedPayment;
  readonly body: string;
}

/** The result sold with the receipt of its landed payment, recorded as this claim's sale. */
function sale(response: StoredResponse, r: Receipt, key: string, facilitatorConfirmed: boolean): Decision {
  const sold = withReceipt(response, r);
  const delivered = deliver(sold, key);
  // The facilitator answered this request's settle call: that answer is the proof of purchase.
  // A landing seen only on chain proves the payment exists, and is ours only if the claim is.
  const ifClaimLost = facilitatorConfirmed ? delivered : refusal(reason('payment_settled_elsewhere'), key);
  return record({ state: 'settled', response: sold }, delivered, ifClaimLost);
}

async function settleAnswer(core: PaymentCore, call: PaidCall, checked: CheckedPayment) {
  const request = facilitatorCall(call, checked, core, core.settleTimeoutMs);
  // Whatever happens in the call, it may have sent the transaction: an error is an unknown answer.
  return core.client
    .settle(request)
    .catch((e: unknown): SettleAnswer | FacilitatorError =>
      e instanceof FacilitatorError ? e : new FacilitatorError('garbage', `/settle failed: ${String(e)}`),
    );
}

/** What the claim becomes, once the settlement's verdict is known. */
function decide(core: PaymentCore, made: MadeResult, verdict: SettlementVerdict): Decision {
  const { call, checked, body } = made;
  const key = checked.payment.key;
  const basis = receiptBasis(checked);
  switch (verdict.kind) {
    case 'settled':
    case 'landed': {
      const paid = receipt(basis, { success: true, transaction: verdict.signature });
      return sale(unsold(call, body), paid, key, verdict.kind === 'settled');
    }
    case 'never_sent':
    case 'not_landed': {
      const transaction = verdict.kind === 'not_landed' ? (verdict.signature ?? '') : '';
      const unpaid = receipt(basis, { success: false, transaction, errorReason: verdict.reason });
      return release(refusal(reason('settlement_failed', { detail: verdict.reason }), key, unpaid));
    }
    case 'used_elsewhere':
      return record({ state: 'spent' }, refusal(reason('payment_settled_elsewhere'), key));
    case 'unknown': {
      const kept = { body, signature: verdict.signature, keptAt: core.watch.now() };
      return record({ state: 'pending', pending: pendingOf(call, checked, kept) }, pendingOutcome(key));
    }
  }
}

/** Settles the payment for the produced (and kept) result and decides what the claim becomes. */
export async function settle(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
  body: string,
): Promise<Decision> {
  const settleSentAt = core.watch.now();
  const answer = await settleAnswer(core, call, checked);
  const verdict = await judgeSettlement(core.watch, checked.payment, answer, settleSentAt);
  return decide(core, { call, checked, body }, verdict);
}

/** A payment left unknown is looked up again: landed sells the kept result, lost frees it. */
export async function recheckSettlement(
  core: PaymentCore,
  checked: CheckedPayment,
  pending: PendingSettlement,
): Promise<Decision> {
  const key = checked.payment.key;
  // A record without keptAt is searched for back to the start of payTo's history: unless that
  // history is short, the search is incomplete and the payment stays pending.
  const found = await findOnChain(core.lookup, checked.payment, pending.signature, pending.keptAt ?? 0);
  const signature = found.signature ?? pending.signature;
  if (found.state === 'landed' && signature !== null) {
    const paid = receipt(pending.receipt, { success: true, transaction: signature });
    return sale(pending.response, paid, key, false);
  }
  if (found.state === 'failed' || found.state === 'expired') {
    return release(refusal(reason('payment_not_landed'), key));
  }
  return record({ state: 'pending', pending: { ...pending, signature } }, pendingOutcome(key));
}
