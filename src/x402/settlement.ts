/**
 * What a settle answer means for the money. A facilitator's word is final only for success,
 * for refusals that can only be given before the transaction is sent, and for "duplicate"
 * (someone else sent it). Anything else — a timeout, a 5xx, garbage, a refusal given after
 * sending — may hide a transfer that landed, so the chain is watched before anything is said
 * about money.
 */
import { RpcRateLimitedError } from '../solana/rpc.js';
import { FacilitatorError, type SettleAnswer } from './facilitator-client.js';
import type { InspectedPayment } from './payment-transaction.js';
import type { Landing, SettlementLookup } from './settlement-lookup.js';

export type SettlementVerdict =
  /** The facilitator settled it for this request. */
  | { readonly kind: 'settled'; readonly signature: string }
  /** The answer was ambiguous and the chain shows the payment landed. */
  | { readonly kind: 'landed'; readonly signature: string }
  /** Refused before the transaction was sent: nothing moved. */
  | { readonly kind: 'never_sent'; readonly reason: string }
  /** The chain shows the payment failed or can no longer land: nothing moved. */
  | { readonly kind: 'not_landed'; readonly reason: string; readonly signature: string | null }
  /** The facilitator has already settled this payment for another request. */
  | { readonly kind: 'used_elsewhere'; readonly reason: string }
  /** Still unknown when the watch ended. */
  | { readonly kind: 'unknown'; readonly reason: string; readonly signature: string | null };

/**
 * Refusals a facilitator can only give before it sends: checks of the payload, the terms, the
 * payer's funds and the simulation. (`invalid_exact_svm_transaction_failed` and
 * `invalid_transaction_state` are not among them: both can follow a send.)
 */
const REFUSED_BEFORE_SENDING = new RegExp(
  [
    '^invalid_exact_svm_payload_',
    '^invalid_exact_svm_(unsupported_scheme|network_mismatch|fee_payer_not_managed_by_facilitator)$',
    '^invalid_exact_svm_(transaction_simulation_failed|verification_failed|fee_payer_mismatch)$',
    '^invalid_exact_svm_smart_wallet_',
    '^(invalid_network|invalid_payload|invalid_payment_requirements|invalid_scheme|invalid_payment)$',
    '^(invalid_x402_version|unsupported_scheme|network_mismatch|fee_payer_not_managed_by_facilitator)$',
    '^(insufficient_funds|payment_expired|transaction_simulation_failed|unexpected_verify_error)$',
  ].join('|'),
);

const DUPLICATE = /^duplicate_settlement$/;

export interface SettlementWatch {
  readonly lookup: SettlementLookup;
  /** How long an ambiguous settlement is watched on chain. */
  readonly windowMs: number;
  /** Pause between two looks. */
  readonly intervalMs: number;
  /** The settle call's own bound: with the window, what the paid call's budget gives settling. */
  readonly settleTimeoutMs: number;
  /** The payment's timeout (the offer's maxTimeoutSeconds): past it, no look is worth asking again. */
  readonly paymentTimeoutMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * How long before it was first seen a payment may already have landed: at most its blockhash's
 * lifetime (about 150 slots, a minute or so), with ample room for clocks and slow slots.
 */
const LANDED_BEFORE_SEEN_MS = 5 * 60_000;

/** What a look at the chain found; `rateLimited` when the RPC refused it for its rate limit. */
export type Look = Landing & { readonly rateLimited?: true };

/** The RPC's rate limit, anywhere in the error's cause chain. */
function isRateLimited(e: unknown): boolean {
  for (let current = e, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++)
    if (current instanceof RpcRateLimitedError) return true;
  return false;
}

/**
 * What the chain says of a payment first seen at `seenAt` (ms); a lookup that fails says
 * "unknown" (and whether the RPC's rate limit refused it).
 */
export async function findOnChain(
  lookup: SettlementLookup,
  payment: InspectedPayment,
  signature: string | null,
  seenAt: number,
): Promise<Look> {
  const since = seenAt - LANDED_BEFORE_SEEN_MS;
  return lookup
    .find(payment.key, { signature, blockhash: payment.blockhash, since })
    .catch((e: unknown) =>
      isRateLimited(e)
        ? { state: 'unknown' as const, signature, rateLimited: true as const }
        : { state: 'unknown' as const, signature },
    );
}

/**
 * When a watch that began at `seenAt` gives up. A look the RPC refused for its rate limit says
 * nothing about the payment: such looks are asked again past the window, within the payment's
 * timeout and within what the paid call's budget gives settling (settle call and window), both
 * counted from when the settle call was sent.
 */
function watchEnd(w: SettlementWatch, seenAt: number, settleSentAt: number, rateLimited: boolean): number {
  const window = seenAt + w.windowMs;
  if (!rateLimited) return window;
  const budget = settleSentAt + w.settleTimeoutMs + w.windowMs;
  return Math.max(window, Math.min(settleSentAt + w.paymentTimeoutMs, budget));
}

/** Watches the chain until it knows what became of the payment, or the window ends. */
async function watch(
  w: SettlementWatch,
  payment: InspectedPayment,
  reason: string,
  signature: string | null,
  settleSentAt: number,
): Promise<SettlementVerdict> {
  const seenAt = w.now();
  for (;;) {
    const found = await findOnChain(w.lookup, payment, signature, seenAt);
    const known = found.signature ?? signature;
    if (found.state === 'landed' && known !== null) return { kind: 'landed', signature: known };
    if (found.state === 'failed' || found.state === 'expired') {
      return { kind: 'not_landed', reason: `${reason}; the payment did not land`, signature: known };
    }
    if (w.now() >= watchEnd(w, seenAt, settleSentAt, found.rateLimited === true))
      return { kind: 'unknown', reason, signature: known };
    await w.sleep(w.intervalMs);
  }
}

/** `settleSentAt`: when the settle call that gave `answer` was sent (ms). */
export async function judgeSettlement(
  w: SettlementWatch,
  payment: InspectedPayment,
  answer: SettleAnswer | FacilitatorError,
  settleSentAt: number,
): Promise<SettlementVerdict> {
  if (answer instanceof FacilitatorError) return watch(w, payment, answer.message, null, settleSentAt);
  const signature = answer.transaction || null;
  // A success without a signature cannot name its transaction: the chain can.
  if (answer.success) {
    return signature !== null
      ? { kind: 'settled', signature }
      : watch(w, payment, 'settled', null, settleSentAt);
  }
  const reason = answer.errorReason ?? 'settlement failed';
  if (DUPLICATE.test(reason)) return { kind: 'used_elsewhere', reason };
  if (REFUSED_BEFORE_SENDING.test(reason)) return { kind: 'never_sent', reason };
  return watch(w, payment, reason, signature, settleSentAt);
}
