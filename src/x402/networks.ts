/** Names of the one chain and asset this service takes payment on. */

/** What the contract says the service advertises in the v1 body. */
export const ADVERTISED_NETWORK = 'solana-mainnet';
/** CAIP-2 id of Solana mainnet, used by x402 v2 (header and facilitator calls). */
export const SOLANA_MAINNET_CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
/** The v1 name official clients and most facilitators know for mainnet. */
export const SOLANA_MAINNET_V1 = 'solana';

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
