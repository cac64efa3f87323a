/**
 * What the steps of a paid call share (paid-call.ts runs them in order; claim.ts, produce.ts,
 * keep.ts, settle.ts and record.ts are the steps): the call, the core's options and its state. Types only, so every step can name them
 * without importing the life cycle that calls it.
 */
import type { PaidEndpoint } from '../catalog.js';
import type { FacilitatorClient } from './facilitator-client.js';
import type { FundsCheck } from './funds-check.js';
import type { PaymentCheckOptions } from './payment-check.js';
import type { PaymentStore } from './payment-store.js';
import type { RecordBacklog } from './record-backlog.js';
import type { SettlementWatch } from './settlement.js';
import type { SettlementLookup } from './settlement-lookup.js';

/** A payment found on a request, before any check of its content. */
export interface PresentedPayment {
  /** x402 transport version the header name implies: X-PAYMENT (1) or PAYMENT-SIGNATURE (2). */
  readonly transport: 1 | 2;
  readonly header: string;
  /** The path paid for (`/scan/token/<mint>`): a payment's result is given again only for it. */
  readonly path: string;
  /** The absolute resource URL the 402 offered for this request (sent on to the facilitator). */
  readonly resource: string;
}

export interface PaidCall {
  readonly endpoint: PaidEndpoint;
  /** What this call costs (the endpoint's price, or its order's for a price per hour), offered and checked. */
  readonly priceUsd: number;
  readonly subject: string;
  readonly payment: PresentedPayment;
  /** Unique per call: it holds the payment's claim and becomes the result's `request_id`. */
  readonly requestId: string;
}

/**
 * Produces the body sold for this call (a ScanResult with `version` and `request_id`, validated;
 * a watch's answer for POST /watch); `resource` is the URL the offer named.
 */
export type ProduceResult = (
  endpoint: PaidEndpoint,
  subject: string,
  requestId: string,
  resource: string,
) => Promise<string>;

/** The warnings the core reports (a pino logger fits). */
export interface CoreLog {
  warn(fields: object, message: string): void;
}

export interface PaymentCoreOptions extends PaymentCheckOptions {
  readonly client: FacilitatorClient;
  readonly store: PaymentStore;
  readonly lookup: SettlementLookup;
  readonly funds: FundsCheck;
  readonly produce: ProduceResult;
  readonly maxTimeoutSeconds: number;
  readonly verifyTimeoutMs: number;
  readonly settleTimeoutMs: number;
  /** Produce while the facilitator verifies (once the payer's funds are seen). */
  readonly parallelVerify: boolean;
  /** How long an ambiguous settlement is watched on chain before answering. */
  readonly confirmWindowMs: number;
  readonly confirmIntervalMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly log?: CoreLog;
  /** Told each time a facilitator has verified a payment (for metrics). */
  readonly onVerified?: () => void;
  /** How often records the store refused are tried again. */
  readonly recordRetryMs?: number;
}

/** The options with their defaults filled in, as the steps use them. */
export interface PaymentCore extends PaymentCoreOptions {
  readonly watch: SettlementWatch;
  readonly backlog: RecordBacklog;
}
