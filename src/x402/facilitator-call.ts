/**
 * The body of a verify or settle call for one checked payment, in the x402 version the
 * facilitator lists (the signed transaction is the same in both).
 */
import type { PaidCall } from './core.js';
import type { FacilitatorCall } from './facilitator-client.js';
import { SOLANA_MAINNET_CAIP2, SOLANA_MAINNET_V1 } from './networks.js';
import { v1Requirement, v2Requirement } from './offer.js';
import type { CheckedPayment } from './payment-check.js';

export interface OfferedTerms {
  readonly payTo: string;
  readonly maxTimeoutSeconds: number;
}

/**
 * The call for `call`'s payment: at the price its offer asked, for the URL the 402 offered
 * (PUBLIC_BASE_URL-based behind a proxy), not the one this hop saw.
 */
export function facilitatorCall(
  { endpoint, priceUsd, payment: { resource } }: PaidCall,
  { terms, payment, facilitator: f }: CheckedPayment,
  offered: OfferedTerms,
  timeoutMs: number,
): FacilitatorCall {
  const terms402 = { ...offered, feePayer: payment.feePayer };
  const useV2 = f.networks.v2 !== null && (terms.version === 2 || f.networks.v1 === null);
  const network = useV2 ? (f.networks.v2 ?? SOLANA_MAINNET_CAIP2) : (f.networks.v1 ?? SOLANA_MAINNET_V1);
  const requirement = useV2
    ? { ...v2Requirement(endpoint, terms402, priceUsd), network }
    : { ...v1Requirement(endpoint, terms402, resource, priceUsd), network };
  const paymentPayload = useV2
    ? {
        x402Version: 2,
        accepted: requirement,
        payload: { transaction: terms.transaction },
        resource: { url: resource },
      }
    : { x402Version: 1, scheme: 'exact', network, payload: { transaction: terms.transaction } };
  return {
    url: f.url,
    x402Version: useV2 ? 2 : 1,
    paymentPayload,
    paymentRequirements: requirement,
    timeoutMs,
  };
}
