/**
 * The one door of every paid call, whatever carries it — a GET's path, a POST's body, an MCP
 * tool call: admission → offer → refuse or pay → count, written once, here. A transport reads its
 * request into a Knock and translates the Answer out; it decides nothing itself. Load shedding,
 * the metrics and the payment gate are all behind this door, so no transport can skip a step or
 * take them in another order.
 *
 * The order is the money rule: a malformed input is refused (400) before anyone is asked to pay;
 * a payment that will not be used is refused (402 with the reason) before it is claimed; a
 * saturated or stopping service refuses (503) before the payment is even decoded, so it stays good.
 * An order an endpoint's screen refuses (a watch's webhook, its room) buys nothing now; yet a
 * payment that bought that order before still gets what it bought: no refusal stands between a
 * payer and a result paid for.
 */
import { createHash } from 'node:crypto';
import { atomicPrice, type EndpointId, type GetEndpoint, type PaidEndpoint } from '../catalog.js';
import { reasonError, type ServiceError } from '../errors.js';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import type { BodySignature, SignBody } from '../signing/signature.js';
import type { PaidCall } from '../x402/core.js';
import type { RenderedOffer } from '../x402/offer.js';
import { type PaidCallOutcome, type Receipt, storedReceipt } from '../x402/outcomes.js';
import type { PaymentGate } from '../x402/paid-call.js';
import type { StoredResponse } from '../x402/payment-store.js';
import {
  type Admission,
  type AdmissionRequest,
  admitInput,
  admitRequest,
  type Purchase,
} from './admission.js';
import type { DoorMetrics } from './metrics.js';
import type { OfferBook, UnpaidOffer } from './offers.js';
import type { Shedder } from './shedding.js';

/** A payment as a transport found it: its text and the x402 version its carrier implies. */
export type PresentedText =
  | { readonly transport: 1 | 2; readonly header: string }
  /** Something was presented as a payment but cannot be one: why, for the 402. */
  | { readonly unreadable: Reason<CodeOf<402>> };

/** One request at the door, as any transport reads it. */
export interface Knock {
  /** GET, HEAD or POST: HEAD is offered, and never takes a payment. */
  readonly method: string;
  /** The raw input: a GET's path parameter as given, a POST's body text. */
  readonly input: string;
  readonly payment: PresentedText | null;
  /** PUBLIC_BASE_URL or the request's origin: the resource URL an offer names is built on it. */
  readonly origin: string;
  /** The id a handed-over payment is claimed under (its result's request_id); asked only then. */
  requestId(): string;
  /** Fields for the request's log line: the payment's fingerprint and key. */
  readonly logFields: Record<string, unknown>;
}

/** What the door answers; each transport words it (HTTP status and headers, MCP tool results). */
export type Answer =
  /** A malformed input: 400, before any payment. */
  | { readonly kind: 'invalid'; readonly error: ServiceError }
  /** A 402: no payment, or one that bought nothing (now); `receipt` when it was settled even so. */
  | { readonly kind: 'offer'; readonly offer: RenderedOffer; readonly receipt: Receipt | null }
  /** The paid result, exactly as stored (its receipt among its headers), and its body's signature. */
  | {
      readonly kind: 'deliver';
      readonly response: StoredResponse;
      readonly signature: BodySignature | null;
    }
  /**
   * 5xx with the reason (the cause is logged here, never shown): nothing was settled, or — with
   * `receipt` — it was, and the work after settlement waits for the payment's replay.
   */
  | {
      readonly kind: 'failed';
      readonly error: ServiceError;
      readonly requestId: string;
      readonly receipt?: Receipt | null;
    }
  /** Refused before the payment was looked at (503): it stays valid for a later try. */
  | { readonly kind: 'shed'; readonly error: ServiceError; readonly retryAfterSeconds: number };

/**
 * A check of a valid input that needs I/O (a watch's webhook addresses, its room), run before any
 * payment is asked for or touched: null to go on, or the refusal (a 400, or a 503 with the
 * seconds after which to try again).
 */
export type Screen = (subject: string) => Promise<ScreenRefusal | null>;

export interface ScreenRefusal {
  readonly error: ServiceError;
  /** Null for a 400; else a 503 with Retry-After. */
  readonly retryAfterSeconds: number | null;
}

/** How long a payer is told to wait when a screen could not run (a store or resolver failing). */
const SCREEN_FAILED_RETRY_AFTER_SECONDS = 5;

/**
 * Work that may only follow a settled payment (a watch starts only once paid), run before a paid
 * result is handed over, fresh or replayed: it must be idempotent. Null when done; else the
 * error answered instead (the payment is settled, so its replay gives the result and runs it again).
 */
export type Fulfil = (body: string) => Promise<ServiceError | null>;

/** Where the door reports a paid call that failed (a pino logger fits). */
export interface DoorLog {
  warn(fields: object, message: string): void;
}

export interface PaidDoorDeps {
  readonly offers: OfferBook;
  /** Absent until payments are wired: every payment is then refused with a 402 that says so. */
  readonly gate?: PaymentGate;
  /** Where payment outcomes, revenue and shed calls are counted; absent = not counted. */
  readonly metrics?: DoorMetrics;
  /** Refuses paid calls with 503 when saturated or shutting down; absent = no limit. */
  readonly shedder?: Shedder;
  readonly log?: DoorLog;
  /** Signs a delivered body (fresh or replayed) with the service's key; absent = unsigned. */
  readonly sign?: SignBody;
  /** Per endpoint, the checks before payment that need I/O. */
  readonly screens?: Readonly<Partial<Record<EndpointId, Screen>>>;
  /** Per endpoint, the work that follows settlement, before delivery. */
  readonly fulfil?: Readonly<Partial<Record<EndpointId, Fulfil>>>;
  /** The operator's discount on prices per item (BATCH_DISCOUNT_PERCENT); absent = none. */
  readonly discountPercent?: number;
}

export interface PaidDoor {
  /** The whole ladder for one request; synchronous unless a payment is handed over. */
  knock(endpoint: PaidEndpoint, knock: Knock): Answer | Promise<Answer>;
  /**
   * The knock's first step alone, for a GET's path parameter (the unpaid lane's fast test): the
   * same admission, and no allocation for a plain offer.
   */
  admit(endpoint: GetEndpoint, request: AdmissionRequest): Admission;
  /** The standard offer for `resourceUrl`: the kept one (as bytes) once asked for before. */
  offer(endpoint: PaidEndpoint, resourceUrl: string): UnpaidOffer;
}

/**
 * What may be logged of a payment header: its size and a short digest, enough to correlate
 * retries of the same payment without putting a signed transaction into the logs.
 */
export function paymentFingerprint(header: string): { bytes: number; sha256: string } {
  return { bytes: header.length, sha256: createHash('sha256').update(header).digest('hex').slice(0, 16) };
}

/** Counts a paid call's outcome (refused, settled, replayed …) and a fresh sale's revenue. */
function countOutcome(metrics: DoorMetrics | undefined, call: PaidCall, outcome: PaidCallOutcome) {
  if (metrics === undefined) return;
  if (outcome.kind !== 'deliver') {
    metrics.payment(outcome.kind === 'refuse' ? 'refused' : outcome.kind);
  } else if (outcome.replay === true) {
    metrics.payment('replayed');
  } else {
    metrics.payment('settled');
    metrics.revenue(call.endpoint.id, Number(atomicPrice(call.priceUsd)));
  }
}

/** The name of the endpoint's one input, as a 400 names it: a GET's path parameter, a POST's body field. */
const inputName = (endpoint: PaidEndpoint): string =>
  endpoint.method === 'GET' ? endpoint.param.name : endpoint.body.field;

/**
 * One paid call at the door once its input is admitted: everything the later steps need, in one
 * record, so each step takes the door's deps and the visit, and nothing else.
 */
interface PaidVisit {
  readonly endpoint: PaidEndpoint;
  readonly knock: Knock;
  /** The resource URL the offer names (the origin and the admitted path). */
  readonly url: string;
  readonly admission: Exclude<Admission, { kind: 'invalid' }>;
  /** What a valid order buys, at what price; null when the input names no purchase (yet). */
  readonly purchase: Purchase | null;
  /** The endpoint's screen's refusal, if it refused: then the payment buys only what it bought before. */
  readonly screenedOut: ScreenRefusal | null;
}

/** A visit whose payment goes to the gate: admitted to pay, readable, and payments wired. */
interface PayingVisit extends PaidVisit {
  readonly gate: PaymentGate;
  readonly purchase: Purchase;
  readonly payment: { readonly transport: 1 | 2; readonly header: string };
}

/** What a 402 offers: the endpoint at its URL, at the purchase's price when there is one. */
interface Offered {
  readonly endpoint: PaidEndpoint;
  readonly url: string;
  readonly priceUsd: number | undefined;
}

/** A 402 whose offer says why this payment buys nothing (`receipt` when it was settled even so). */
function refusal(
  deps: PaidDoorDeps,
  offered: Offered,
  why: Reason<CodeOf<402>>,
  receipt: Receipt | null,
): Answer {
  const { endpoint, priceUsd, url } = offered;
  return { kind: 'offer', offer: deps.offers.refusal(endpoint, why, priceUsd).render(url), receipt };
}

/** A payment refused at the door: counted, never claimed. */
function refuse(deps: PaidDoorDeps, visit: PaidVisit, why: Reason<CodeOf<402>>): Answer {
  deps.metrics?.payment('refused');
  const { endpoint, url, purchase } = visit;
  return refusal(deps, { endpoint, url, priceUsd: purchase?.priceUsd }, why, null);
}

/**
 * A throw after settlement: the payer was charged, so whatever was thrown (even a ServiceError
 * whose words say nothing was charged) is answered as a result not handed over yet.
 */
function settledButUnfulfilled(e: unknown): ServiceError {
  return reasonError(reason('result_not_handed_over'), {}, e);
}

/** The paid result handed over, once the endpoint's work after settlement (if any) is done. */
async function delivery(deps: PaidDoorDeps, call: PaidCall, response: StoredResponse): Promise<Answer> {
  const fulfil = deps.fulfil?.[call.endpoint.id];
  const error = fulfil === undefined ? null : await fulfil(response.body).catch(settledButUnfulfilled);
  if (error !== null) {
    deps.log?.warn(
      { req_id: call.requestId, err: error.cause ?? error },
      'paid result settled, not yet fulfilled',
    );
    // The payer was charged: the receipt goes with the refusal, as it would with the result.
    return { kind: 'failed', error, requestId: call.requestId, receipt: storedReceipt(response.headers) };
  }
  return { kind: 'deliver', response, signature: deps.sign?.(response.body) ?? null };
}

/** The gate's outcome as the door's answer: counted, its payment key and any failure logged. */
function answerOutcome(
  deps: PaidDoorDeps,
  call: PaidCall,
  outcome: PaidCallOutcome,
  knock: Knock,
): Answer | Promise<Answer> {
  if (outcome.paymentKey !== null) knock.logFields.payment_key = outcome.paymentKey.slice(0, 16);
  countOutcome(deps.metrics, call, outcome);
  const offered = { endpoint: call.endpoint, url: call.payment.resource, priceUsd: call.priceUsd };
  switch (outcome.kind) {
    case 'deliver':
      return delivery(deps, call, outcome.response);
    case 'refuse':
      return refusal(deps, offered, { code: outcome.code, text: outcome.reason }, outcome.receipt);
    case 'pending':
      return refusal(deps, offered, { code: outcome.code, text: outcome.reason }, null);
    case 'failed':
      deps.log?.warn({ req_id: call.requestId, err: outcome.cause }, 'paid call failed; payment not settled');
      return { kind: 'failed', error: outcome.error, requestId: call.requestId };
  }
}

/** The call the gate is handed: what the visit buys, with the payment as presented. */
function paidCall(visit: PayingVisit): PaidCall {
  const { endpoint, purchase, payment, url, knock } = visit;
  return {
    endpoint,
    priceUsd: purchase.priceUsd,
    subject: purchase.subject,
    payment: { transport: payment.transport, header: payment.header, path: purchase.paidFor, resource: url },
    requestId: knock.requestId(),
  };
}

/**
 * The gate's answer. A call the screen refused buys nothing now; but what the payment bought
 * before is handed over.
 */
async function gateAnswer(deps: PaidDoorDeps, visit: PayingVisit): Promise<Answer> {
  const call = paidCall(visit);
  const { gate, screenedOut, knock } = visit;
  if (screenedOut === null) return answerOutcome(deps, call, await gate.handle(call), knock);
  const replayed = await gate.replay(call);
  return replayed === null ? screened(screenedOut) : answerOutcome(deps, call, replayed, knock);
}

/** Hands an admitted payment to the gate, unless the service sheds it first (then it is not even decoded). */
function pay(deps: PaidDoorDeps, visit: PayingVisit): Answer | Promise<Answer> {
  const { shedder } = deps;
  const entry = shedder?.enter(visit.purchase.scans);
  if (entry !== undefined && !entry.admitted) {
    deps.metrics?.shed(entry.reason);
    return { kind: 'shed', error: entry.error, retryAfterSeconds: shedder!.retryAfterSeconds };
  }
  const answered = gateAnswer(deps, visit);
  return entry === undefined ? answered : answered.finally(() => entry.slot.leave());
}

/** No payment, or one the admission would not take: the (priced) offer. */
function offer(deps: PaidDoorDeps, visit: PaidVisit): Answer {
  const { endpoint, url, purchase } = visit;
  const offered =
    purchase === null
      ? deps.offers.unpaid(endpoint, url)
      : deps.offers.priced(endpoint, url, purchase.priceUsd);
  return { kind: 'offer', offer: offered, receipt: null };
}

/**
 * The ladder's steps after admission and the screen (if any): offer → refuse or pay. A call the
 * screen refused is offered nothing and buys nothing: its payment is only asked what it bought
 * before (a replay), and otherwise left untouched.
 */
function offerOrPay(deps: PaidDoorDeps, visit: PaidVisit): Answer | Promise<Answer> {
  const { gate } = deps;
  const { admission, screenedOut, knock } = visit;
  const payment = knock.payment;
  if (payment === null || admission.kind === 'offer') {
    return screenedOut === null ? offer(deps, visit) : screened(screenedOut);
  }
  if ('header' in payment) knock.logFields.payment = paymentFingerprint(payment.header);
  if (screenedOut !== null && (admission.kind !== 'pay' || gate === undefined || !('header' in payment))) {
    return screened(screenedOut);
  }
  if (admission.kind === 'refuse_payment') return refuse(deps, visit, admission.reason);
  // Admitted to pay only when a gate is wired (admission's takingPayments): no reason of its own.
  if (gate === undefined) return refuse(deps, visit, reason('not_taking_payments'));
  if (!('header' in payment)) return refuse(deps, visit, payment.unreadable);
  return pay(deps, { ...visit, gate, purchase: admission.purchase, payment });
}

/** A screen's refusal as the door's answer: a 400, or a 503 with Retry-After. */
function screened(refused: ScreenRefusal): Answer {
  const { error, retryAfterSeconds } = refused;
  return retryAfterSeconds === null ? { kind: 'invalid', error } : { kind: 'shed', error, retryAfterSeconds };
}

/** Runs a screen; one that fails (a store or resolver down) refuses with a 503, its cause logged. */
function runScreen(deps: PaidDoorDeps, screen: Screen, subject: string): Promise<ScreenRefusal | null> {
  return screen(subject).catch((cause: unknown): ScreenRefusal => {
    deps.log?.warn({ err: cause }, 'a paid call could not be checked before payment');
    const seconds = SCREEN_FAILED_RETRY_AFTER_SECONDS;
    const error = reasonError(reason('check_unavailable', { seconds }), {}, cause);
    return { error, retryAfterSeconds: seconds };
  });
}

/** The ladder: admission → screen (if the endpoint has one) → offer → refuse or pay. */
function answerKnock(deps: PaidDoorDeps, endpoint: PaidEndpoint, knock: Knock): Answer | Promise<Answer> {
  const request = { method: knock.method, value: knock.input, hasPayment: knock.payment !== null };
  const { resourcePath, admission } = admitInput(
    endpoint,
    request,
    deps.gate !== undefined,
    deps.discountPercent,
  );
  if (admission.kind === 'invalid') {
    const error = reasonError(admission.reason, { parameter: inputName(endpoint) });
    return { kind: 'invalid', error };
  }
  const purchase = admission.kind === 'offer' || admission.kind === 'pay' ? admission.purchase : null;
  const visit: PaidVisit = {
    endpoint,
    knock,
    url: knock.origin + resourcePath,
    admission,
    purchase,
    screenedOut: null,
  };
  const screen = purchase === null ? undefined : deps.screens?.[endpoint.id];
  if (screen === undefined || purchase === null) return offerOrPay(deps, visit);
  return runScreen(deps, screen, purchase.subject).then((screenedOut) =>
    offerOrPay(deps, { ...visit, screenedOut }),
  );
}

export function createPaidDoor(deps: PaidDoorDeps): PaidDoor {
  const takingPayments = deps.gate !== undefined;
  return {
    knock: (endpoint, knock) => answerKnock(deps, endpoint, knock),
    admit: (endpoint, request) => admitRequest(endpoint, request, takingPayments),
    offer: (endpoint, resourceUrl) => deps.offers.unpaid(endpoint, resourceUrl),
  };
}
