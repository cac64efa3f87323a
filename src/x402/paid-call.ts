/**
 * The life cycle of a paid call (docs/architecture.md), free of any transport:
 *
 *   admit → claim → verify → produce → settle → record
 *
 * The money rules it keeps:
 * - a payment is claimed (sha256 of its message) before any work, so it buys one result;
 * - a refusal at admission never claims; exactly one place (`conclude`) gives a claim back;
 * - nothing is settled unless the result exists; a failed scan costs nothing;
 * - no result leaves without a settlement made for this request: the facilitator's success,
 *   or a landing on chain while the store shows this request's claim sent it;
 * - "nothing was charged" is said only before sending, or when the chain shows it;
 * - a settled payment's response is kept: the same payment for the same path gets it again.
 */
import { toServiceError } from '../errors.js';
import type { PaidCall, PaymentCore, PaymentCoreOptions, PresentedPayment } from './core.js';
import {
  type Decision,
  deliver,
  failed,
  type PaidCallOutcome,
  paidForAnother,
  pendingOutcome,
  refusal,
  release,
  SETTLED_ELSEWHERE,
  STORE_UNAVAILABLE,
  STORE_UNREADABLE,
  UNRECORDED_SALE,
} from './outcomes.js';
import { type CheckedPayment, checkPayment } from './payment-check.js';
import type { PendingSettlement } from './payment-store.js';
import { pendingOf, recheckPending, settleAndDecide, verifyAndProduce } from './purchase.js';
import { createRecordBacklog } from './record-backlog.js';

// The call and the core's options are in core.ts, which the steps share; named here for callers.
export type { PaidCall, PresentedPayment };

/** Takes a call that carries a payment; answers with its outcome. */
export interface PaymentGate {
  handle(call: PaidCall): Promise<PaidCallOutcome>;
  /**
   * For a call the door would refuse before buying anything (a watch whose webhook no longer
   * passes): what the payment already bought, if it bought something — no later refusal may stand
   * between a payer and a result paid for. Null when it bought nothing (or is not a payment): the
   * claim taken to learn that is given back, and the payment stays good for a later try.
   */
  replay(call: PaidCall): Promise<PaidCallOutcome | null>;
  /** Writes the records the store refused (it retries by itself too); resolves to how many still wait. */
  retryRecords(): Promise<number>;
  /** Settled sales whose record the store has not taken yet. */
  unrecorded(): number;
  /** Writes what it can of them (trying again until `untilMs`, a performance.now() time), then stops retrying. */
  close(untilMs?: number): Promise<void>;
}

type Claim =
  | { readonly kind: 'answered'; readonly outcome: PaidCallOutcome }
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
  if (pending === null) {
    return answered(refusal('payment_in_use: this payment is being processed by another request', key));
  }
  return { kind: 'recheck', pending };
}

async function claimPayment(core: PaymentCore, call: PaidCall, key: string): Promise<Claim> {
  const held = await core.store.claim(key, call.requestId);
  switch (held.state) {
    case 'claimed':
      return { kind: 'fresh' };
    case 'in_flight':
      return answered(refusal('payment_in_use: this payment is already being processed', key));
    case 'spent':
      return answered(refusal(SETTLED_ELSEWHERE, key));
    case 'settled':
      // A payment buys one result: asked again, it gives that result again, and only for its path.
      if (held.response.resource !== call.payment.path) {
        return answered(refusal(paidForAnother(held.response.resource, false), key));
      }
      return answered(deliver(held.response, key, true));
    case 'pending': {
      if (held.pending.response.resource !== call.payment.path) {
        return answered(refusal(paidForAnother(held.pending.response.resource, true), key));
      }
      return claimForRecheck(core, call, key);
    }
  }
}

/** Verify, produce and settle; anything thrown before the settle call leaves nothing settled. */
async function purchase(core: PaymentCore, call: PaidCall, checked: CheckedPayment): Promise<Decision> {
  let body: string;
  try {
    const produced = await verifyAndProduce(core, call, checked);
    if (produced.kind !== 'produced') return produced;
    body = produced.body;
  } catch (e) {
    return { kind: 'release', outcome: failed(toServiceError(e), e, checked.payment.key) };
  }
  const unkept = await keepBeforeSettling(core, call, checked, body);
  return unkept ?? settleAndDecide(core, call, checked, body);
}

/**
 * Writes the result down before the settle call, so a crash during it leaves a pending
 * settlement for the chain to decide, never a free claim; a result that cannot be kept is not
 * settled. Null when kept.
 */
async function keepBeforeSettling(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
  body: string,
): Promise<Decision | null> {
  const key = checked.payment.key;
  try {
    const kept = await core.store.markSending(
      key,
      call.requestId,
      pendingOf(call, checked, body, null, core.watch.now()),
    );
    if (kept) return null;
    return release(refusal('payment_in_use: this payment was taken over by another request', key));
  } catch (e) {
    return release(failed(STORE_UNAVAILABLE(), e, key));
  }
}

/** Gives a claim back; one that fails leaves the claim to expire: the payment is only delayed, never sold twice. */
async function giveBack(core: PaymentCore, call: PaidCall, key: string): Promise<void> {
  await core.store.release(key, call.requestId).catch((e: unknown) => {
    core.log?.warn({ req_id: call.requestId, err: e }, 'payment claim could not be released');
  });
}

/** Records a decision, or gives the claim back: the one place a claim bought with is released. */
async function conclude(core: PaymentCore, call: PaidCall, key: string, decision: Decision) {
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
      : pendingOutcome(key, UNRECORDED_SALE);
  }
  return stillOurs ? decision.outcome : decision.ifClaimLost;
}

/** A payment read and claimed: answered by the claim alone, or held for a purchase or a re-check. */
type Taken =
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'answered'; readonly outcome: PaidCallOutcome }
  | { readonly kind: 'fresh'; readonly checked: CheckedPayment }
  | { readonly kind: 'recheck'; readonly checked: CheckedPayment; readonly pending: PendingSettlement };

async function readAndClaim(core: PaymentCore, call: PaidCall): Promise<Taken> {
  const admitted = await checkPayment(core, call.endpoint, call.priceUsd, call.payment.header);
  if (!admitted.ok) return { kind: 'unreadable', reason: admitted.reason };
  const { checked } = admitted;
  const key = checked.payment.key;
  let claim: Claim;
  try {
    claim = await claimPayment(core, call, key);
  } catch (e) {
    // The claim may have been taken even so (a timed-out command that ran): it is given back.
    const outcome = await conclude(core, call, key, release(failed(STORE_UNREADABLE(), e, key)));
    return { kind: 'answered', outcome };
  }
  if (claim.kind === 'recheck') return { kind: 'recheck', checked, pending: claim.pending };
  return claim.kind === 'fresh' ? { kind: 'fresh', checked } : claim;
}

/** A pending payment's new look at the chain, concluded. */
async function recheck(
  core: PaymentCore,
  call: PaidCall,
  checked: CheckedPayment,
  pending: PendingSettlement,
) {
  return conclude(core, call, checked.payment.key, await recheckPending(core, checked, pending));
}

export async function handlePaidCall(core: PaymentCore, call: PaidCall): Promise<PaidCallOutcome> {
  const taken = await readAndClaim(core, call);
  switch (taken.kind) {
    case 'unreadable':
      return refusal(taken.reason, null);
    case 'answered':
      return taken.outcome;
    case 'recheck':
      return recheck(core, call, taken.checked, taken.pending);
    case 'fresh':
      return conclude(core, call, taken.checked.payment.key, await purchase(core, call, taken.checked));
  }
}

/** See PaymentGate.replay: a kept or pending result is answered; a fresh claim is given back. */
export async function replayPaidCall(core: PaymentCore, call: PaidCall): Promise<PaidCallOutcome | null> {
  const taken = await readAndClaim(core, call);
  switch (taken.kind) {
    case 'unreadable':
      return null;
    case 'answered':
      return taken.outcome;
    case 'recheck':
      return recheck(core, call, taken.checked, taken.pending);
    case 'fresh':
      await giveBack(core, call, taken.checked.payment.key);
      return null;
  }
}

export function createPaymentGate(options: PaymentCoreOptions): PaymentGate {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const core: PaymentCore = {
    ...options,
    watch: {
      lookup: options.lookup,
      windowMs: options.confirmWindowMs,
      intervalMs: options.confirmIntervalMs ?? 500,
      settleTimeoutMs: options.settleTimeoutMs,
      paymentTimeoutMs: options.maxTimeoutSeconds * 1000,
      now,
      sleep,
    },
    backlog: createRecordBacklog(options.store, { retryMs: options.recordRetryMs, log: options.log }),
  };
  return {
    handle: (call) => handlePaidCall(core, call),
    replay: (call) => replayPaidCall(core, call),
    retryRecords: () => core.backlog.retry(),
    unrecorded: () => core.backlog.size(),
    close: (untilMs) => core.backlog.close(untilMs),
  };
}
