/**
 * Meteora DAMM v2 and DAMM v1 pools and Meteora dynamic vaults in their real layouts (the offsets
 * the decoders read, checked there against real mainnet bytes), written directly since the sandbox
 * does not run Meteora's programs. Fields the scan does not read stay zero.
 */
import type { Address } from '@solana/kit';
import { DAMM_V2_POOL_SIZE } from '../../../solana/decoders/meteora-damm-v2.js';
import { VAULT_DISCRIMINATOR } from '../../../solana/decoders/meteora-vault.js';
import { POOL_DISCRIMINATOR } from '../../../solana/decoders/pumpswap-pool.js';
import { pubkey, u64 } from './bytes.js';

const u128 = (value: bigint) => {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, value & (2n ** 64n - 1n), true);
  view.setBigUint64(8, value >> 64n, true);
  return bytes;
};

/** Q64.64 bounds of a DAMM v2 pool's price range (the program's MIN/MAX_SQRT_PRICE). */
const MIN_SQRT_PRICE = 4_295_048_016n;
const MAX_SQRT_PRICE = 79_226_673_521_066_979_257_578_248_091n;

export interface DammV2PoolFields {
  mintA: Address;
  mintB: Address;
  vaultA: Address;
  vaultB: Address;
  liquidity: bigint;
  sqrtPriceX64: bigint;
  creator: Address;
  /** What the pool counts in each vault (layout version 1 tracks them). */
  amountA: bigint;
  amountB: bigint;
}

export function encodeDammV2Pool(f: DammV2PoolFields): Uint8Array {
  const data = new Uint8Array(DAMM_V2_POOL_SIZE);
  data.set(POOL_DISCRIMINATOR, 0);
  data.set(pubkey(f.mintA), 168);
  data.set(pubkey(f.mintB), 200);
  data.set(pubkey(f.vaultA), 232);
  data.set(pubkey(f.vaultB), 264);
  data.set(u128(f.liquidity), 360);
  data.set(u128(MIN_SQRT_PRICE), 424);
  data.set(u128(MAX_SQRT_PRICE), 440);
  data.set(u128(f.sqrtPriceX64), 456);
  data[480] = 1; // activation by timestamp; pool_status 0 (481) = enabled
  data.set(pubkey(f.creator), 648);
  data.set(u64(f.amountA), 680);
  data.set(u64(f.amountB), 688);
  data[696] = 1; // layout version 1
  return data;
}

/** The real DAMM v1 pool account's size (HcjZvfeS…: the Borsh fields, then padding and the curve). */
export const DAMM_V1_POOL_ACCOUNT_SIZE = 1387;

export interface DammV1PoolFields {
  lpMint: Address;
  mintA: Address;
  mintB: Address;
  vaultA: Address;
  vaultB: Address;
  vaultLpA: Address;
  vaultLpB: Address;
  vaultLpBumpA: number;
}

export function encodeDammV1Pool(f: DammV1PoolFields): Uint8Array {
  const data = new Uint8Array(DAMM_V1_POOL_ACCOUNT_SIZE);
  data.set(POOL_DISCRIMINATOR, 0);
  const keys = [f.lpMint, f.mintA, f.mintB, f.vaultA, f.vaultB, f.vaultLpA, f.vaultLpB];
  keys.forEach((key, i) => {
    data.set(pubkey(key), 8 + 32 * i);
  });
  data[232] = f.vaultLpBumpA;
  data[233] = 1; // enabled
  data.set(u64(25n), 330); // trade fee 25 / 10,000 (the default tier)
  data.set(u64(10_000n), 338);
  data.set(u64(10_000n), 354);
  data[362] = 1; // permissionless
  return data;
}

/** The real vault accounts' size (FERjPVNE…, 8p1VKP45…). */
export const VAULT_ACCOUNT_SIZE = 10_240;

export interface DynamicVaultFields {
  totalAmount: bigint;
  tokenVault: Address;
  tokenMint: Address;
  lpMint: Address;
  base: Address;
}

export function encodeDynamicVault(f: DynamicVaultFields): Uint8Array {
  const data = new Uint8Array(VAULT_ACCOUNT_SIZE);
  data.set(VAULT_DISCRIMINATOR, 0);
  data[8] = 1; // enabled
  data.set(u64(f.totalAmount), 11);
  data.set(pubkey(f.tokenVault), 19);
  data.set(pubkey(f.tokenMint), 83);
  data.set(pubkey(f.lpMint), 115);
  data.set(pubkey(f.base), 1107);
  return data;
}
