/**
 * The admit step of a paid call: everything that can be checked without the network — the
 * header, the terms it names, the transaction itself and the facilitator it is built for.
 * A payment refused here was never claimed and nothing was done for it.
 */
import { atomicPrice, type PaidEndpoint } from '../catalog.js';
import { type CodeOf, type Reason, reason } from '../reasons.js';
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

export type PaymentCheck = { ok: true; checked: CheckedPayment } | { ok: false; reason: Refusal };

type Refusal = Reason<CodeOf<402>>;

const refused = (why: Refusal): PaymentCheck => ({ ok: false, reason: why });

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
function termsProblem(options: PaymentCheckOptions, priceUsd: number, terms: PaymentTerms): Refusal | null {
  if (terms.scheme !== 'exact') return reason('scheme_not_accepted', { scheme: terms.scheme });
  if (!isSolanaMainnet(terms.network)) return reason('network_not_accepted', { network: terms.network });
  const price = atomicPrice(priceUsd);
  if (terms.accepted === null) return null;
  const { amount, asset, payTo } = terms.accepted;
  if (amount !== price) return reason('amount_not_price', { amount, price });
  if (asset !== USDC_MINT) return reason('asset_not_usdc', { asset });
  if (payTo !== options.payTo) return reason('pay_to_not_ours', { payTo });
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
    return refused(reason('endpoint_unavailable', { path: endpoint.path }));
  }
  const decoded = decodePaymentHeader(header);
  if (!decoded.ok) return refused(decoded.reason);
  const terms = decoded.payment;
  const problem = termsProblem(options, priceUsd, terms);
  if (problem !== null) return refused(problem);
  const inspection = await inspectPaymentTransaction(terms.transaction, expectation(options, priceUsd));
  if (!inspection.ok) return refused(inspection.reason);
  const facilitator = options.facilitators.byFeePayer(inspection.payment.feePayer);
  if (facilitator === null) return refused(reason('fee_payer_unmanaged'));
  return { ok: true, checked: { terms, payment: inspection.payment, facilitator } };
}
