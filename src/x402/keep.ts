/**
 * The keep step: the produced result is written down before the settle call, so a crash during
 * it leaves a pending settlement for the chain to decide, never a free claim; a result that
 * cannot be kept is not settled.
 */
import { reason } from '../reasons.js';
import type { PaidCall, PaymentCore } from './core.js';
import { pendingOf } from './kept-result.js';
import { type Decision, failed, refusal, release, STORE_UNAVAILABLE } from './outcomes.js';
import type { CheckedPayment } from './payment-check.js';

/** Null when kept; else the decision that gives the claim back. */
export async function keep(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
  body: string,
): Promise<Decision | null> {
  const key = checked.payment.key;
  const result = { body, signature: null, keptAt: core.watch.now() };
  try {
    const kept = await core.store.markSending(key, call.requestId, pendingOf(call, checked, result));
    return kept ? null : release(refusal(reason('payment_taken_over'), key));
  } catch (e) {
    return release(failed(STORE_UNAVAILABLE(), e, key));
  }
}
