/** The offer of a 402 this client can pay: the "exact" scheme on Solana mainnet, with a fee payer. */
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { callFailures } from './failures.js';

export const CAIP2_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/** Picks the offer this client can pay, or says why there is none. */
export function payableOffer(required: PaymentRequired, body: unknown): PaymentRequirements {
  const offers = required.accepts ?? [];
  const exact = offers.filter((o) => o.scheme === 'exact' && o.network === CAIP2_MAINNET);
  if (exact.length === 0) {
    const offered = offers.map((o) => `${o.scheme} on ${o.network}`).join(', ') || 'nothing';
    throw callFailures.unpayable(
      `it offers ${offered}, and this client pays only the "exact" scheme on Solana mainnet (${CAIP2_MAINNET})`,
    );
  }
  const withFeePayer = exact.find((o) => typeof o.extra?.feePayer === 'string' && o.extra.feePayer !== '');
  if (withFeePayer === undefined) {
    const said = (body as { error?: unknown } | null)?.error;
    throw callFailures.unpayable(
      `its offer names no fee payer (extra.feePayer), which a Solana payment needs: none of the API's facilitators answered it${typeof said === 'string' ? ` (the API says: ${said.replace(/\.$/, '')})` : ''}. Try again later`,
    );
  }
  if (!/^\d+$/.test(withFeePayer.amount))
    throw callFailures.unpayable(
      `its amount ${JSON.stringify(withFeePayer.amount)} is not a number of units`,
    );
  return withFeePayer;
}
