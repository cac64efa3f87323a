/**
 * 402 offers per endpoint, rebuilt only when what they advertise changes (the facilitator's
 * fee payer or health). Everything but the resource URL is serialised once.
 */
import {
  type EndpointId,
  listedPrice,
  orderPriceUsd,
  PAID_ENDPOINTS,
  type PaidEndpoint,
  unitPriceText,
  usdText,
} from '../catalog.js';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import { type ServiceMetadata, serviceMetadata } from '../x402/bazaar.js';
import type { FacilitatorDirectory } from '../x402/facilitators.js';
import type { V1NetworkName } from '../x402/networks.js';
import {
  createOfferTemplate,
  type OfferTemplate,
  type OfferTerms,
  type RenderedOffer,
} from '../x402/offer.js';

/**
 * Most standard offers kept rendered, by resource URL, and most URLs remembered as asked for
 * once. Agents ask again and again for the same subjects, and a kept offer is written as it is:
 * its strings already flat and checked, its body already bytes. An offer is kept only from its
 * URL's second request: keeping every offer (a few KB each) made URLs that never repeat cost more
 * than a plain render, through the garbage collector, while remembering a URL costs only its
 * string. Both are simply cleared
 * when full.
 */
const REMEMBERED_OFFERS = 1024;

/** A standard 402 offer, as the book gives it. */
export interface UnpaidOffer extends RenderedOffer {
  /** The body as bytes, for a kept offer; null for a URL not (yet) asked for twice. */
  readonly bytes: Buffer | null;
}

export interface OfferBookOptions {
  readonly payTo: string;
  readonly maxTimeoutSeconds: number;
  readonly facilitators: FacilitatorDirectory;
  /** PUBLIC_BASE_URL: names the service icon on v2 offers when set. */
  readonly publicBaseUrl?: string | null;
  /** X402_V1_NETWORK: the network the v1 body names; absent = the contract's. */
  readonly v1Network?: V1NetworkName;
  /** BATCH_DISCOUNT_PERCENT: the discount on prices per item; absent = none. */
  readonly discountPercent?: number;
}

export function paymentPrompt(
  endpoint: PaidEndpoint,
  priceUsd?: number,
  discountPercent = 0,
): Reason<'payment_required' | 'payment_required_order'> {
  const { usd, per } = listedPrice(endpoint, discountPercent);
  if (per === 'call') return reason('payment_required', { usd: usd.toFixed(2) });
  const total = priceUsd === undefined ? '' : `: ${usdText(priceUsd)} USDC for this order`;
  return reason('payment_required_order', {
    total,
    usd: unitPriceText(endpoint.price, discountPercent),
    per,
  });
}

export class OfferBook {
  private templates = new Map<EndpointId, OfferTemplate>();
  private builtFor = -1;
  private readonly kept = new Map<string, UnpaidOffer>();
  private readonly askedOnce = new Set<string>();
  private readonly service: ServiceMetadata;

  constructor(private readonly options: OfferBookOptions) {
    this.service = serviceMetadata(options.publicBaseUrl ?? null);
  }

  /** Current terms of an endpoint, its 402 saying `refused` when given (why a payment bought nothing). */
  terms(endpoint: PaidEndpoint, refused?: Reason<CodeOf<402>>, priceUsd?: number): OfferTerms {
    const facilitator = this.options.facilitators.advertised();
    const unavailable = facilitator === null ? this.options.facilitators.unavailableReason() : null;
    const why =
      refused ??
      (unavailable === null
        ? paymentPrompt(endpoint, priceUsd, this.options.discountPercent)
        : reason('payment_unavailable', { why: unavailable }));
    return {
      payTo: this.options.payTo,
      feePayer: facilitator?.feePayer ?? null,
      maxTimeoutSeconds: this.options.maxTimeoutSeconds,
      why,
      service: this.service,
      ...(this.options.v1Network ? { v1Network: this.options.v1Network } : {}),
    };
  }

  /** What the standard offer asks: the price per call, or the least one order costs. */
  private leastPrice(endpoint: PaidEndpoint): number {
    return orderPriceUsd(endpoint, 1, this.options.discountPercent);
  }

  /** The standard template for an unpaid request. */
  template(endpoint: PaidEndpoint): OfferTemplate {
    const version = this.options.facilitators.version;
    if (version !== this.builtFor) {
      this.templates = new Map(
        PAID_ENDPOINTS.map((e) => [e.id, createOfferTemplate(e, this.terms(e), this.leastPrice(e))]),
      );
      this.builtFor = version;
      this.kept.clear();
      this.askedOnce.clear();
    }
    return this.templates.get(endpoint.id)!;
  }

  /**
   * The standard offer for `resourceUrl` (a URL of `endpoint`): the kept one, or a render, kept
   * when the URL has been asked for before.
   */
  unpaid(endpoint: PaidEndpoint, resourceUrl: string): UnpaidOffer {
    // The template first: when the terms changed, it drops what was kept for the old ones.
    const template = this.template(endpoint);
    const kept = this.kept.get(resourceUrl);
    if (kept !== undefined) return kept;
    const offer = template.render(resourceUrl);
    if (this.askedOnce.delete(resourceUrl)) {
      if (this.kept.size >= REMEMBERED_OFFERS) this.kept.clear();
      const keeping = { ...offer, bytes: Buffer.from(offer.body) };
      this.kept.set(resourceUrl, keeping);
      return keeping;
    }
    if (this.askedOnce.size >= REMEMBERED_OFFERS) this.askedOnce.clear();
    this.askedOnce.add(resourceUrl);
    return { ...offer, bytes: null };
  }

  /**
   * The offer of one order of an endpoint priced per hour (its amount the order's price): built
   * for the request, never kept, as orders differ by their body.
   */
  priced(endpoint: PaidEndpoint, resourceUrl: string, priceUsd: number): UnpaidOffer {
    if (listedPrice(endpoint).per === 'call') return this.unpaid(endpoint, resourceUrl);
    const offer = createOfferTemplate(endpoint, this.terms(endpoint, undefined, priceUsd), priceUsd);
    return { ...offer.render(resourceUrl), bytes: null };
  }

  /** A one-off template whose `error` explains why a payment was refused (at the order's price when given). */
  refusal(endpoint: PaidEndpoint, why: Reason<CodeOf<402>>, priceUsd?: number): OfferTemplate {
    return createOfferTemplate(endpoint, this.terms(endpoint, why), priceUsd ?? this.leastPrice(endpoint));
  }
}
