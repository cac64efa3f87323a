/**
 * Meteora DAMM v2 and DAMM v1 pools and Meteora dynamic vaults in their real layouts (the offsets
 * the decoders read, checked there against real mainnet bytes), written directly since the sandbox
 * does not run Meteora's programs. Fields the scan does not read stay zero.
 */
import type { Address } from '@solana/kit';
import { DAMM_V1_POOL_LAYOUT } from '../../../solana/decoders/meteora-damm-v1.js';
import { DAMM_V2_POOL_LAYOUT } from '../../../solana/decoders/meteora-damm-v2.js';
import { VAULT_LAYOUT } from '../../../solana/decoders/meteora-vault.js';

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
  return new Uint8Array(
    DAMM_V2_POOL_LAYOUT.encode({
      cliffFeeNumerator: 0n,
      tokenAMint: f.mintA,
      tokenBMint: f.mintB,
      tokenAVault: f.vaultA,
      tokenBVault: f.vaultB,
      liquidity: f.liquidity,
      protocolAFee: 0n,
      protocolBFee: 0n,
      partnerAFee: 0n,
      partnerBFee: 0n,
      sqrtMinPrice: MIN_SQRT_PRICE,
      sqrtMaxPrice: MAX_SQRT_PRICE,
      sqrtPrice: f.sqrtPriceX64,
      activationType: 1, // by timestamp
      poolStatus: 0, // enabled
      permanentLockLiquidity: 0n,
      creator: f.creator,
      tokenAAmount: f.amountA,
      tokenBAmount: f.amountB,
      layoutVersion: 1,
    }),
  );
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
  data.set(
    DAMM_V1_POOL_LAYOUT.encode({
      lpMint: f.lpMint,
      tokenAMint: f.mintA,
      tokenBMint: f.mintB,
      aVault: f.vaultA,
      bVault: f.vaultB,
      aVaultLp: f.vaultLpA,
      bVaultLp: f.vaultLpB,
      aVaultLpBump: f.vaultLpBumpA,
      enabled: 1,
      tradeFeeNumerator: 25n, // 25 / 10,000: the default tier
      tradeFeeDenominator: 10_000n,
      protocolTradeFeeNumerator: 0n,
      protocolTradeFeeDenominator: 10_000n,
      poolType: 1, // permissionless
      totalLockedLp: 0n,
    }),
  );
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
  data.set(
    VAULT_LAYOUT.encode({
      enabled: 1,
      totalAmount: f.totalAmount,
      tokenVault: f.tokenVault,
      tokenMint: f.tokenMint,
      lpMint: f.lpMint,
      base: f.base,
      lockedProfit: 0n,
      lastReport: 0n,
      lockedProfitDegradation: 0n,
    }),
  );
  return data;
}
