/**
 * The claim step: a payment's key is taken by this request's id before any work, so one payment
 * buys one result. A payment already sold answers here (its result again, for its path only); one
 * held by another request or spent is refused; one whose settlement was left unknown is taken
 * for a new look at the chain.
 */

import { reason } from '../reasons.js';
import type { PaidCall, PaymentCore } from './core.js';
import {
  type Decision,
  deliver,
  failed,
  type PaidCallOutcome,
  refusal,
  release,
  STORE_UNREADABLE,
} from './outcomes.js';
import type { PendingSettlement } from './payment-store.js';

export type Claim =
  /** Answered by the claim alone: nothing to give back. */
  | { readonly kind: 'answered'; readonly outcome: PaidCallOutcome }
  /** The store failed: the claim may have been taken even so, so the decision gives it back. */
  | { readonly kind: 'unsure'; readonly decision: Decision }
  | { readonly kind: 'fresh' }
  | { readonly kind: 'recheck'; readonly pending: PendingSettlement };

const answered = (outcome: PaidCallOutcome): Claim => ({ kind: 'answered', outcome });

/**
 * Takes a pending payment for a new look at the chain. Its failure is answered here and never
 * gives a claim back: a re-check claim the store took even so carries the kept result, which
 * comes back pending when that claim expires; giving it back would drop the result.
 */
async function claimForRecheck(core: PaymentCore, call: PaidCall, key: string): Promise<Claim> {
  let pending: PendingSettlement | null;
  try {
    pending = await core.store.claimPending(key, call.requestId);
  } catch (e) {
    return answered(failed(STORE_UNREADABLE(), e, key));
  }
  if (pending === null) return answered(refusal(reason('payment_rechecked_elsewhere'), key));
  return { kind: 'recheck', pending };
}

async function takeClaim(core: PaymentCore, call: PaidCall, key: string): Promise<Claim> {
  const held = await core.store.claim(key, call.requestId);
  switch (held.state) {
    case 'claimed':
      return { kind: 'fresh' };
    case 'in_flight':
      return answered(refusal(reason('payment_in_use'), key));
    case 'spent':
      return answered(refusal(reason('payment_settled_elsewhere'), key));
    case 'settled': {
      // A payment buys one result: asked again, it gives that result again, and only for its path.
      const path = held.response.resource;
      if (path !== call.payment.path)
        return answered(refusal(reason('payment_paid_for_another', { path }), key));
      return answered(deliver(held.response, key, true));
    }
    case 'pending': {
      const path = held.pending.response.resource;
      if (path !== call.payment.path) {
        return answered(refusal(reason('payment_settling_for_another', { path }), key));
      }
      return claimForRecheck(core, call, key);
    }
  }
}

/** Claims the payment under `key` for this call. */
export async function claim(core: PaymentCore, call: PaidCall, key: string): Promise<Claim> {
  try {
    return await takeClaim(core, call, key);
  } catch (e) {
    // The claim may have been taken even so (a timed-out command that ran): it is given back.
    return { kind: 'unsure', decision: release(failed(STORE_UNREADABLE(), e, key)) };
  }
}
