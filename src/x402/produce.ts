/**
 * The produce step: the facilitator verifies the payment, and the result is produced. With
 * parallel verify the work starts before the facilitator answers, but only once the payer's
 * funds are seen on chain: an unfunded payment costs no scan. Anything thrown here leaves
 * nothing settled.
 */
import { isServiceError } from '../errors.js';
import { reason } from '../reasons.js';
import type { PaidCall, PaymentCore } from './core.js';
import { facilitatorCall } from './facilitator-call.js';
import { FacilitatorError } from './facilitator-client.js';
import { type Decision, failed, refusal, release, SCAN_FAILED } from './outcomes.js';
import type { CheckedPayment } from './payment-check.js';

export type Produced = { readonly kind: 'produced'; readonly body: string } | Decision;

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

/** The facilitator's verdict: null when valid, else the refusal (nothing was charged). */
async function verify(core: PaymentCore, call: PaidCall, checked: CheckedPayment): Promise<Decision | null> {
  const key = checked.payment.key;
  const request = facilitatorCall(call, checked, core, core.verifyTimeoutMs);
  let verdict: Awaited<ReturnType<PaymentCore['client']['verify']>>;
  try {
    verdict = await core.client.verify(request);
  } catch (e) {
    if (!(e instanceof FacilitatorError)) throw e;
    core.facilitators.markUnhealthy(checked.facilitator.url, e.message);
    return release(refusal(reason('verify_unavailable', { detail: e.message }), key));
  }
  if (!verdict.isValid) {
    const facilitatorReason = verdict.invalidReason ?? 'invalid payment';
    return release(refusal(reason('payment_refused', { facilitatorReason }), key));
  }
  core.onVerified?.();
  return null;
}

/** The result, or the claim given back when it could not be made. */
async function result(work: () => Promise<string>, key: string): Promise<Produced> {
  try {
    return { kind: 'produced', body: await work() };
  } catch (e) {
    // A producer's refusal for want of room (a full watch list) keeps its words: retry later;
    // so does a batch's failure, which names the subjects that could not be scanned.
    const ownWords = isServiceError(e) && (e.code === 'service_unavailable' || e.reason === 'batch_failed');
    return release(failed(ownWords ? e : SCAN_FAILED(), e, key));
  }
}

/** Verifies the payment and produces the result sold for it. */
export async function produce(core: PaymentCore, call: PaidCall, checked: CheckedPayment): Promise<Produced> {
  const work = once(() => core.produce(call.endpoint, call.subject, call.requestId, call.payment.resource));
  let verifying = true;
  if (core.parallelVerify) {
    void core.funds.covers(checked.payment).then((covered) => {
      if (covered && verifying) work();
    });
  }
  const refused = await verify(core, call, checked).finally(() => {
    verifying = false;
  });
  return refused ?? result(work, checked.payment.key);
}
