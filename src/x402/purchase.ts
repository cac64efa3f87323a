/**
 * The steps a claimed payment goes through: verify → produce → settle, or, for a payment whose
 * settlement was left unknown, a new look at the chain. Each returns a Decision; the caller
 * (paid-call.ts) is the one place that records it or gives the claim back.
 */

import { isServiceError } from '../errors.js';
import type { PaidCall, PaymentCore } from './core.js';
import { facilitatorCall } from './facilitator-call.js';
import { FacilitatorError, type SettleAnswer } from './facilitator-client.js';
import {
  type Decision,
  deliver,
  failed,
  pendingOutcome,
  type Receipt,
  receipt,
  record,
  refusal,
  release,
  SCAN_FAILED,
  SETTLED_ELSEWHERE,
  withReceipt,
} from './outcomes.js';
import type { CheckedPayment } from './payment-check.js';
import type { PendingSettlement, ReceiptBasis, StoredResponse } from './payment-store.js';
import { findOnChain, judgeSettlement } from './settlement.js';

type Produced = { readonly kind: 'produced'; readonly body: string } | Decision;

/** Runs `work` at most once, whoever asks first; its failure is observed by whoever awaits it. */
function once<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    if (running === null) {
      running = work();
      running.catch(() => undefined);
    }
    return running;
  };
}

/**
 * Verify, and produce the result. With parallel verify the scan starts before the facilitator
 * answers, but only once the payer's funds are seen on chain: an unfunded payment costs no scan.
 */
export async function verifyAndProduce(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
): Promise<Produced> {
  const key = checked.payment.key;
  const produce = once(() =>
    core.produce(call.endpoint, call.subject, call.requestId, call.payment.resource),
  );
  let verifying = true;
  if (core.parallelVerify) {
    void core.funds.covers(checked.payment).then((covered) => {
      if (covered && verifying) produce();
    });
  }
  const verifyCall = facilitatorCall(
    call.endpoint,
    call.priceUsd,
    call.payment.resource,
    checked,
    core,
    core.verifyTimeoutMs,
  );
  let verdict: Awaited<ReturnType<PaymentCore['client']['verify']>>;
  try {
    verdict = await core.client.verify(verifyCall);
  } catch (e) {
    if (!(e instanceof FacilitatorError)) throw e;
    core.facilitators.markUnhealthy(checked.facilitator.url, e.message);
    return release(
      refusal(`the facilitator could not verify the payment (${e.message}); nothing was charged`, key),
    );
  } finally {
    verifying = false;
  }
  if (!verdict.isValid) {
    return release(refusal(`payment refused: ${verdict.invalidReason ?? 'invalid payment'}`, key));
  }
  core.onVerified?.();
  try {
    return { kind: 'produced', body: await produce() };
  } catch (e) {
    // A producer's refusal for want of room (a full watch list) keeps its words: retry later.
    const unavailable = isServiceError(e) && e.code === 'service_unavailable';
    return release(failed(unavailable ? e : SCAN_FAILED(), e, key));
  }
}

function receiptBasis({ terms, payment }: CheckedPayment): ReceiptBasis {
  return { version: terms.version, network: terms.network, payer: payment.payer };
}

function unsold(call: PaidCall, body: string): StoredResponse {
  return {
    resource: call.payment.path,
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body,
  };
}

/** The result sold with the receipt of its landed payment, recorded as this claim's sale. */
function sale(response: StoredResponse, r: Receipt, key: string, facilitatorConfirmed: boolean): Decision {
  const sold = withReceipt(response, r);
  const delivered = deliver(sold, key);
  // The facilitator answered this request's settle call: that answer is the proof of purchase.
  // A landing seen only on chain proves the payment exists, and is ours only if the claim is.
  return record(
    { state: 'settled', response: sold },
    delivered,
    facilitatorConfirmed ? delivered : refusal(SETTLED_ELSEWHERE, key),
  );
}

async function settleAnswer(core: PaymentCore, call: PaidCall, checked: CheckedPayment) {
  const settleCall = facilitatorCall(
    call.endpoint,
    call.priceUsd,
    call.payment.resource,
    checked,
    core,
    core.settleTimeoutMs,
  );
  // Whatever happens in the call, it may have sent the transaction: an error is an unknown answer.
  return core.client
    .settle(settleCall)
    .catch((e: unknown): SettleAnswer | FacilitatorError =>
      e instanceof FacilitatorError ? e : new FacilitatorError('garbage', `/settle failed: ${String(e)}`),
    );
}

/** The produced result, kept while its settlement is under way or unknown. */
export function pendingOf(
  call: PaidCall,
  checked: CheckedPayment,
  body: string,
  signature: string | null,
  keptAt: number,
): PendingSettlement {
  return {
    response: unsold(call, body),
    receipt: receiptBasis(checked),
    signature,
    blockhash: checked.payment.blockhash,
    keptAt,
  };
}

/** Settles the payment for the produced result and decides what the claim becomes. */
export async function settleAndDecide(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
  body: string,
): Promise<Decision> {
  const key = checked.payment.key;
  const settleSentAt = core.watch.now();
  const answer = await settleAnswer(core, call, checked);
  const verdict = await judgeSettlement(core.watch, checked.payment, answer, settleSentAt);
  const basis = receiptBasis(checked);
  const response = unsold(call, body);
  switch (verdict.kind) {
    case 'settled':
    case 'landed':
      return sale(
        response,
        receipt(basis, { success: true, transaction: verdict.signature }),
        key,
        verdict.kind === 'settled',
      );
    case 'never_sent':
    case 'not_landed': {
      const transaction = verdict.kind === 'not_landed' ? (verdict.signature ?? '') : '';
      const failedReceipt = receipt(basis, { success: false, transaction, errorReason: verdict.reason });
      return release(
        refusal(`settlement failed: ${verdict.reason}; nothing was charged`, key, failedReceipt),
      );
    }
    case 'used_elsewhere':
      return record({ state: 'spent' }, refusal(SETTLED_ELSEWHERE, key));
    case 'unknown':
      return record(
        { state: 'pending', pending: pendingOf(call, checked, body, verdict.signature, core.watch.now()) },
        pendingOutcome(key),
      );
  }
}

/** A payment left unknown is looked up again: landed sells the kept result, lost frees it. */
export async function recheckPending(
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
    return sale(
      pending.response,
      receipt(pending.receipt, { success: true, transaction: signature }),
      key,
      false,
    );
  }
  if (found.state === 'failed' || found.state === 'expired') {
    return release(refusal('the payment did not land; nothing was charged', key));
  }
  return record({ state: 'pending', pending: { ...pending, signature } }, pendingOutcome(key));
}
