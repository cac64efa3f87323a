/**
 * The record step: a decision is written down while the claim is still this request's, or the
 * claim is given back. This is the one place a claim is released: a refusal at admission never
 * claimed, and a payment is never sold twice.
 */
import { reason } from '../reasons.js';
import type { PaidCall, PaymentCore } from './core.js';
import { type Decision, type PaidCallOutcome, pendingOutcome } from './outcomes.js';

/** Gives a claim back; one that fails leaves the claim to expire: the payment is only delayed, never sold twice. */
export async function giveBack(core: PaymentCore, call: PaidCall, key: string): Promise<void> {
  await core.store.release(key, call.requestId).catch((e: unknown) => {
    core.log?.warn({ req_id: call.requestId, err: e }, 'payment claim could not be released');
  });
}

/** Records a decision, or gives the claim back; answers with the call's outcome. */
export async function recordDecision(
  core: PaymentCore,
  call: PaidCall,
  key: string,
  decision: Decision,
): Promise<PaidCallOutcome> {
  if (decision.kind === 'release') {
    await giveBack(core, call, key);
    return decision.outcome;
  }
  const stillOurs = await core.store.record(key, call.requestId, decision.record).catch((e: unknown) => {
    // An unwritable record must not lose the result: it is written when the store is back.
    core.log?.warn({ req_id: call.requestId, err: e }, 'payment record could not be written; retrying');
    core.backlog.add(key, call.requestId, decision.record);
    return null;
  });
  if (stillOurs === null) {
    // The facilitator's answer to this request proves the sale; a landing seen only on chain
    // does only while the store shows this claim, which it cannot say now.
    return decision.outcome === decision.ifClaimLost
      ? decision.outcome
      : pendingOutcome(key, reason('sale_unrecorded'));
  }
  return stillOurs ? decision.outcome : decision.ifClaimLost;
}
