/**
 * 402 offers per endpoint, rebuilt only when what they advertise changes (the facilitator's
 * fee payer or health). Everything but the resource URL is serialised once.
 */
import { type EndpointId, PAID_ENDPOINTS, type PaidEndpoint } from '../catalog.js';
import type { FacilitatorDirectory } from '../x402/facilitators.js';
import { createOfferTemplate, type OfferTemplate, type OfferTerms } from '../x402/offer.js';

export interface OfferBookOptions {
  readonly payTo: string;
  readonly maxTimeoutSeconds: number;
  readonly facilitators: FacilitatorDirectory;
}

export function paymentPrompt(endpoint: PaidEndpoint): string {
  const price = endpoint.priceUsd.toFixed(2);
  return `Payment required: ${price} USDC on Solana mainnet per call, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE header)`;
}

export class OfferBook {
  private templates = new Map<EndpointId, OfferTemplate>();
  private builtFor = -1;

  constructor(private readonly options: OfferBookOptions) {}

  /** Current terms of an endpoint, with `error` replaced by `reason` when given. */
  terms(endpoint: PaidEndpoint, reason?: string): OfferTerms {
    const facilitator = this.options.facilitators.advertised();
    const unavailable = facilitator === null ? this.options.facilitators.unavailableReason() : null;
    const error =
      reason ??
      (unavailable === null ? paymentPrompt(endpoint) : `Payment cannot be taken right now: ${unavailable}`);
    return {
      payTo: this.options.payTo,
      feePayer: facilitator?.feePayer ?? null,
      maxTimeoutSeconds: this.options.maxTimeoutSeconds,
      error,
    };
  }

  /** The standard template for an unpaid request. */
  template(endpoint: PaidEndpoint): OfferTemplate {
    const version = this.options.facilitators.version;
    if (version !== this.builtFor) {
      this.templates = new Map(PAID_ENDPOINTS.map((e) => [e.id, createOfferTemplate(e, this.terms(e))]));
      this.builtFor = version;
    }
    return this.templates.get(endpoint.id)!;
  }

  /** A one-off template whose `error` explains why a payment was refused. */
  refusal(endpoint: PaidEndpoint, reason: string): OfferTemplate {
    return createOfferTemplate(endpoint, this.terms(endpoint, reason));
  }
}
