/** Names of the one chain and asset this service takes payment on. */

/** What the contract says the service advertises in the v1 body. */
export const ADVERTISED_NETWORK = 'solana-mainnet';
/** CAIP-2 id of Solana mainnet, used by x402 v2 (header and facilitator calls). */
export const SOLANA_MAINNET_CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
/** The v1 name official clients and most facilitators know for mainnet. */
export const SOLANA_MAINNET_V1 = 'solana';

/**
 * The names the v1 402 body may give mainnet (X402_V1_NETWORK): the contract's, by default, or
 * the one v1 client libraries (x402-fetch 1.x) know, which refuse any other. Either way every
 * name of MAINNET_NAMES is accepted in a payment.
 */
export const V1_NETWORK_NAMES = [ADVERTISED_NETWORK, SOLANA_MAINNET_V1] as const;
export type V1NetworkName = (typeof V1_NETWORK_NAMES)[number];

/** Every name different x402 stacks use for Solana mainnet; all mean the same chain. */
const MAINNET_NAMES: ReadonlySet<string> = new Set([
  ADVERTISED_NETWORK,
  SOLANA_MAINNET_V1,
  'solana-mainnet-beta',
  SOLANA_MAINNET_CAIP2,
]);

export function isSolanaMainnet(network: unknown): boolean {
  return typeof network === 'string' && MAINNET_NAMES.has(network);
}

/** USDC on Solana mainnet (6 decimals): the payment asset. */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
