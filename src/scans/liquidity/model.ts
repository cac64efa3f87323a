/**
 * Shapes several liquidity files share (discovery, the AMM v4 search, the assessment): kept here so
 * none of them imports another only for a type.
 */
import type { Address } from '@solana/kit';
import type { Dex } from './markets.js';

/** A large holder's token account owned by a DEX's shared vault authority: a market whose pool is not located yet. */
export interface UnlocatedVault {
  readonly dex: Dex;
  readonly tokenAccount: Address;
  readonly owner: Address;
  readonly amount: bigint;
}
