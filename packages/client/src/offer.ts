/**
 * The offer of a 402 this client pays: the "exact" scheme on the pinned network, with a fee
 * payer, and only when it names the pinned payee and asset and asks no more than the catalog's
 * price. A tampered 402 (another payee, asset, network or a higher price) is refused before
 * anything is signed.
 */
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { PayFailures } from './errors.js';

export const CAIP2_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const USDC_MAINNET = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** What the client is told of the service, and pays nothing else. */
export interface PinnedOffer {
  /** The service's payee; null pays whichever the 402 names (the CLI without --pay-to). */
  readonly payTo: string | null;
  readonly asset: string;
  readonly network: string;
}

/** Picks the offer this client can pay, or says why there is none. */
export function payableOffer(
  required: PaymentRequired,
  body: unknown,
  network: string,
  failures: PayFailures,
): PaymentRequirements {
  const offers = required.accepts ?? [];
  const exact = offers.filter((o) => o.scheme === 'exact' && o.network === network);
  if (exact.length === 0) {
    const offered = offers.map((o) => `${o.scheme} on ${o.network}`).join(', ') || 'nothing';
    const where = network === CAIP2_MAINNET ? `Solana mainnet (${network})` : network;
    throw failures.unpayable(
      `it offers ${offered}, and this client pays only the "exact" scheme on ${where}`,
      'network_mismatch',
    );
  }
  const withFeePayer = exact.find((o) => typeof o.extra?.feePayer === 'string' && o.extra.feePayer !== '');
  if (withFeePayer === undefined) {
    const said = (body as { error?: unknown } | null)?.error;
    throw failures.unpayable(
      `its offer names no fee payer (extra.feePayer), which a Solana payment needs: none of the API's facilitators answered it${typeof said === 'string' ? ` (the API says: ${said.replace(/\.$/, '')})` : ''}. Try again later`,
    );
  }
  if (!/^\d+$/.test(withFeePayer.amount))
    throw failures.unpayable(`its amount ${JSON.stringify(withFeePayer.amount)} is not a number of units`);
  return withFeePayer;
}

/** Throws unless `offer` names the pinned payee and asset and costs at most `catalogUnits` (when known). */
export function checkPinned(
  offer: PaymentRequirements,
  pin: PinnedOffer,
  catalogUnits: bigint | null,
  failures: PayFailures,
): void {
  if (pin.payTo !== null && offer.payTo !== pin.payTo)
    throw failures.notPinned(
      'payee_mismatch',
      `it names the payee ${offer.payTo}, and this client pays only ${pin.payTo}`,
    );
  if (offer.asset !== pin.asset)
    throw failures.notPinned(
      'asset_mismatch',
      `it asks for the asset ${offer.asset}, and this client pays only ${pin.asset}`,
    );
  if (catalogUnits !== null && BigInt(offer.amount) > catalogUnits)
    throw failures.notPinned(
      'price_above_catalog',
      `it asks ${offer.amount} units, more than the catalog's ${catalogUnits} for this call`,
    );
}
