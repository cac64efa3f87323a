/**
 * The life cycle of a paid call (docs/architecture.md), free of any transport, in one ordered
 * list; each step lives in the file named for it and returns to this list, never to another step:
 *
 *   check (payment-check.ts) → claim (claim.ts) → produce (produce.ts: verify, then the result)
 *     → keep (keep.ts) → settle (settle.ts) → record (record.ts)
 *
 * The money rules it keeps:
 * - a payment is claimed (sha256 of its message) before any work, so it buys one result;
 * - a refusal at the check never claims; exactly one place (`recordDecision`) gives a claim back;
 * - nothing is settled unless the result exists and is kept; a failed scan costs nothing;
 * - no result leaves without a settlement made for this request: the facilitator's success,
 *   or a landing on chain while the store shows this request's claim sent it;
 * - "nothing was charged" is said only before sending, or when the chain shows it;
 * - a settled payment's response is kept: the same payment for the same path gets it again.
 */
import { toServiceError } from '../errors.js';
import { claim } from './claim.js';
import type { PaidCall, PaymentCore, PaymentCoreOptions, PresentedPayment } from './core.js';
import { keep } from './keep.js';
import { type Decision, failed, type PaidCallOutcome, refusal, release } from './outcomes.js';
import { type CheckedPayment, checkPayment } from './payment-check.js';
import type { PendingSettlement } from './payment-store.js';
import { produce } from './produce.js';
import { giveBack, recordDecision } from './record.js';
import { createRecordBacklog } from './record-backlog.js';
import { recheckSettlement, settle } from './settle.js';

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

/** A payment checked and claimed: answered already, or held for a purchase or a re-check. */
type Taken =
  | { readonly kind: 'unreadable'; readonly outcome: PaidCallOutcome }
  | { readonly kind: 'answered'; readonly outcome: PaidCallOutcome }
  | { readonly kind: 'fresh'; readonly checked: CheckedPayment }
  | { readonly kind: 'recheck'; readonly checked: CheckedPayment; readonly pending: PendingSettlement };

/** Steps 1 and 2: check the payment against the offer, then claim it. */
async function take(core: PaymentCore, call: PaidCall): Promise<Taken> {
  const admitted = await checkPayment(core, call.endpoint, call.priceUsd, call.payment.header);
  if (!admitted.ok) return { kind: 'unreadable', outcome: refusal(admitted.reason, null) };
  const { checked } = admitted;
  const claimed = await claim(core, call, checked.payment.key);
  switch (claimed.kind) {
    case 'answered':
      return claimed;
    case 'unsure':
      return {
        kind: 'answered',
        outcome: await recordDecision(core, call, checked.payment.key, claimed.decision),
      };
    case 'fresh':
      return { kind: 'fresh', checked };
    case 'recheck':
      return { kind: 'recheck', checked, pending: claimed.pending };
  }
}

/** Steps 3 to 5 for a fresh claim: produce (verify first), keep, settle. Nothing is settled unless kept. */
async function buy(core: PaymentCore, call: PaidCall, checked: CheckedPayment): Promise<Decision> {
  let produced: Awaited<ReturnType<typeof produce>>;
  try {
    produced = await produce(core, call, checked);
  } catch (e) {
    return release(failed(toServiceError(e), e, checked.payment.key));
  }
  if (produced.kind !== 'produced') return produced;
  const unkept = await keep(core, call, checked, produced.body);
  return unkept ?? settle(core, call, checked, produced.body);
}

/** Step 6: what a claimed payment became, recorded (or its claim given back). */
async function conclude(core: PaymentCore, call: PaidCall, taken: Extract<Taken, { checked: unknown }>) {
  const decision =
    taken.kind === 'fresh'
      ? await buy(core, call, taken.checked)
      : await recheckSettlement(core, taken.checked, taken.pending);
  return recordDecision(core, call, taken.checked.payment.key, decision);
}

export async function handlePaidCall(core: PaymentCore, call: PaidCall): Promise<PaidCallOutcome> {
  const taken = await take(core, call);
  if (taken.kind === 'unreadable' || taken.kind === 'answered') return taken.outcome;
  return conclude(core, call, taken);
}

/** See PaymentGate.replay: a kept or pending result is answered; a fresh claim is given back. */
export async function replayPaidCall(core: PaymentCore, call: PaidCall): Promise<PaidCallOutcome | null> {
  const taken = await take(core, call);
  switch (taken.kind) {
    case 'unreadable':
      return null;
    case 'answered':
      return taken.outcome;
    case 'recheck':
      return conclude(core, call, taken);
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
