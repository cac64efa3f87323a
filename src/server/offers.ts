/**
 * 402 offers per endpoint, rebuilt only when what they advertise changes (the facilitator's
 * fee payer or health). Everything but the resource URL is serialised once.
 */
import { type EndpointId, PAID_ENDPOINTS, type PaidEndpoint } from '../catalog.js';
import type { FacilitatorDirectory } from '../x402/facilitators.js';
import {
  createOfferTemplate,
  type OfferTemplate,
  type OfferTerms,
  type RenderedOffer,
} from '../x402/offer.js';

/**
 * Most standard offers kept rendered, by resource URL. Agents ask again and again for the same
 * subjects (every paid call starts with an unpaid one), and a kept offer is written as it is:
 * its strings already flat and checked, its body already bytes. About 2.5 KB each; the memo is
 * simply cleared when full, so URLs that never repeat cost a render, as without it.
 */
const REMEMBERED_OFFERS = 1024;

/** A standard 402 offer, as kept by the book. */
export interface UnpaidOffer extends RenderedOffer {
  /** The body as bytes, made on the offer's second use: a URL asked for once never pays for it. */
  bytes: Buffer | null;
}

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
  private readonly rendered = new Map<string, UnpaidOffer>();

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
      this.rendered.clear();
    }
    return this.templates.get(endpoint.id)!;
  }

  /** The standard offer for `resourceUrl` (a URL of `endpoint`), kept for the next request. */
  unpaid(endpoint: PaidEndpoint, resourceUrl: string): UnpaidOffer {
    const template = this.template(endpoint);
    let offer = this.rendered.get(resourceUrl);
    if (offer === undefined) {
      if (this.rendered.size >= REMEMBERED_OFFERS) this.rendered.clear();
      offer = { ...template.render(resourceUrl), bytes: null };
      this.rendered.set(resourceUrl, offer);
    } else if (offer.bytes === null) {
      offer.bytes = Buffer.from(offer.body);
    }
    return offer;
  }

  /** A one-off template whose `error` explains why a payment was refused. */
  refusal(endpoint: PaidEndpoint, reason: string): OfferTemplate {
    return createOfferTemplate(endpoint, this.terms(endpoint, reason));
  }
}
