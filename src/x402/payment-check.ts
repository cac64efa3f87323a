/**
 * The admit step of a paid call: everything that can be checked without the network — the
 * header, the terms it names, the transaction itself and the facilitator it is built for.
 * A payment refused here was never claimed and nothing was done for it.
 */
import { atomicPrice, type PaidEndpoint } from '../catalog.js';
import type { FacilitatorStatus } from './facilitators.js';
import { decodePaymentHeader, type PaymentTerms } from './headers.js';
import { isSolanaMainnet, USDC_MINT } from './networks.js';
import {
  type InspectedPayment,
  inspectPaymentTransaction,
  type PaymentExpectation,
} from './payment-transaction.js';

/** The facilitators a payment may be built around, as the payment core needs them. */
export interface FacilitatorRoster {
  status(): readonly FacilitatorStatus[];
  byFeePayer(feePayer: string): FacilitatorStatus | null;
  /** Records a failed call, so the next offer fails over and the facilitator is re-probed. */
  markUnhealthy(url: string, message: string): void;
}

export interface PaymentCheckOptions {
  readonly facilitators: FacilitatorRoster;
  /** False for an endpoint this build cannot serve: its payments are refused before anything else. */
  readonly canProduce: (endpoint: PaidEndpoint) => boolean;
  readonly payTo: string;
  /** payTo's associated token account for USDC, per token program. */
  readonly destinations: PaymentExpectation['destinations'];
  readonly maxComputeUnitPrice?: bigint;
  readonly maxComputeUnitLimit?: number;
}

/** A payment that passed every local check. */
export interface CheckedPayment {
  readonly terms: PaymentTerms;
  readonly payment: InspectedPayment;
  readonly facilitator: FacilitatorStatus;
}

export type PaymentCheck = { ok: true; checked: CheckedPayment } | { ok: false; reason: string };

const refused = (reason: string): PaymentCheck => ({ ok: false, reason });

function expectation(options: PaymentCheckOptions, priceUsd: number): PaymentExpectation {
  const feePayers = options.facilitators.status().flatMap((s) => (s.feePayer ? [s.feePayer] : []));
  return {
    amount: BigInt(atomicPrice(priceUsd)),
    asset: USDC_MINT as PaymentExpectation['asset'],
    destinations: options.destinations,
    feePayers: new Set(feePayers),
    ...(options.maxComputeUnitPrice !== undefined
      ? { maxComputeUnitPrice: options.maxComputeUnitPrice }
      : {}),
    ...(options.maxComputeUnitLimit !== undefined
      ? { maxComputeUnitLimit: options.maxComputeUnitLimit }
      : {}),
  };
}

/** Why the terms a payment names are not this endpoint's, or null when they are. */
function termsProblem(options: PaymentCheckOptions, priceUsd: number, terms: PaymentTerms) {
  if (terms.scheme !== 'exact') return `scheme "${terms.scheme}" is not accepted; pay with "exact"`;
  if (!isSolanaMainnet(terms.network)) {
    return `network "${terms.network}" is not accepted; pay on Solana mainnet (solana-mainnet)`;
  }
  const price = atomicPrice(priceUsd);
  if (terms.accepted === null) return null;
  if (terms.accepted.amount !== price)
    return `accepted amount ${terms.accepted.amount} is not the price ${price}`;
  if (terms.accepted.asset !== USDC_MINT) return `asset ${terms.accepted.asset} is not USDC`;
  if (terms.accepted.payTo !== options.payTo) return `payTo ${terms.accepted.payTo} is not this service's`;
  return null;
}

/** Checks a payment for one call of `endpoint` that costs `priceUsd`. */
export async function checkPayment(
  options: PaymentCheckOptions,
  endpoint: PaidEndpoint,
  priceUsd: number,
  header: string,
): Promise<PaymentCheck> {
  if (!options.canProduce(endpoint)) {
    return refused(`${endpoint.path} cannot deliver results in this build; nothing was charged`);
  }
  const decoded = decodePaymentHeader(header);
  if (!decoded.ok) return refused(decoded.reason);
  const terms = decoded.payment;
  const problem = termsProblem(options, priceUsd, terms);
  if (problem !== null) return refused(problem);
  const inspection = await inspectPaymentTransaction(terms.transaction, expectation(options, priceUsd));
  if (!inspection.ok) return refused(inspection.reason);
  const facilitator = options.facilitators.byFeePayer(inspection.payment.feePayer);
  if (facilitator === null) return refused('no facilitator manages the fee payer this payment names');
  return { ok: true, checked: { terms, payment: inspection.payment, facilitator } };
}
