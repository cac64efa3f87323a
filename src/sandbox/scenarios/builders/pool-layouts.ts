/**
 * Raydium CPMM PoolState, Raydium AMM v4 AmmInfo and Orca Whirlpool accounts in their real layouts (the offsets the
 * decoders read, checked there against real mainnet bytes), and SPL token accounts and mints
 * written directly (pool vaults and LP mints belong to the DEX programs, which the sandbox does
 * not run).
 */
import { type Address, none, type Option, some } from '@solana/kit';
import { AccountState, getMintEncoder, getTokenEncoder } from '@solana-program/token';
import { WHIRLPOOL_LAYOUT } from '../../../solana/decoders/orca-whirlpool.js';
import { AMM_V4_LAYOUT } from '../../../solana/decoders/raydium-amm-v4.js';
import { CPMM_POOL_LAYOUT } from '../../../solana/decoders/raydium-cpmm.js';

export interface CpmmPoolFields {
  ammConfig: Address;
  creator: Address;
  vault0: Address;
  vault1: Address;
  lpMint: Address;
  mint0: Address;
  mint1: Address;
  tokenProgram: Address;
  authBump: number;
  lpSupply: bigint;
  openTime: bigint;
}

export function encodeCpmmPool(f: CpmmPoolFields): Uint8Array {
  return new Uint8Array(
    CPMM_POOL_LAYOUT.encode({
      ammConfig: f.ammConfig,
      poolCreator: f.creator,
      token0Vault: f.vault0,
      token1Vault: f.vault1,
      lpMint: f.lpMint,
      token0Mint: f.mint0,
      token1Mint: f.mint1,
      token0Program: f.tokenProgram,
      token1Program: f.tokenProgram,
      authBump: f.authBump,
      status: 0,
      lpMintDecimals: 9,
      mint0Decimals: 6,
      mint1Decimals: 9,
      lpSupply: f.lpSupply,
      protocolFeesToken0: 0n,
      protocolFeesToken1: 0n,
      fundFeesToken0: 0n,
      fundFeesToken1: 0n,
      openTime: f.openTime,
    }),
  );
}

export interface AmmV4PoolFields {
  nonce: number;
  coinDecimals: number;
  pcDecimals: number;
  coinVault: Address;
  pcVault: Address;
  coinMint: Address;
  pcMint: Address;
  lpMint: Address;
  openOrders: Address;
  market: Address;
  marketProgram: Address;
  targetOrders: Address;
  ammOwner: Address;
  lpAmount: bigint;
}

/** Status 6 (SwapOnly), as a pool that trades without an order book is left; no PnL pending. */
export function encodeAmmV4Pool(f: AmmV4PoolFields): Uint8Array {
  return new Uint8Array(
    AMM_V4_LAYOUT.encode({
      status: 6n,
      nonce: f.nonce,
      coinDecimals: f.coinDecimals,
      pcDecimals: f.pcDecimals,
      tradeFeeNumerator: 25n, // 0.25 %
      tradeFeeDenominator: 10_000n,
      swapFeeNumerator: 25n, // 0.25 %, what a swap pays
      swapFeeDenominator: 10_000n,
      needTakePnlCoin: 0n,
      needTakePnlPc: 0n,
      coinVault: f.coinVault,
      pcVault: f.pcVault,
      coinVaultMint: f.coinMint,
      pcVaultMint: f.pcMint,
      lpMint: f.lpMint,
      openOrders: f.openOrders,
      market: f.market,
      marketProgram: f.marketProgram,
      targetOrders: f.targetOrders,
      ammOwner: f.ammOwner,
      lpAmount: f.lpAmount,
    }),
  );
}

export interface WhirlpoolFields {
  config: Address;
  bump: number;
  tickSpacing: number;
  liquidity: bigint;
  sqrtPriceX64: bigint;
  mintA: Address;
  vaultA: Address;
  mintB: Address;
  vaultB: Address;
  /** The tick holding the price (tick_current_index); the program keeps it with the price. */
  tickCurrent?: number;
}

export function encodeWhirlpool(f: WhirlpoolFields): Uint8Array {
  return new Uint8Array(
    WHIRLPOOL_LAYOUT.encode({
      whirlpoolsConfig: f.config,
      whirlpoolBump: f.bump,
      tickSpacing: f.tickSpacing,
      feeTierIndexSeed: f.tickSpacing,
      feeRate: 3000, // hundredths of a bp
      liquidity: f.liquidity,
      sqrtPrice: f.sqrtPriceX64,
      tickCurrentIndex: f.tickCurrent ?? 0,
      tokenMintA: f.mintA,
      tokenVaultA: f.vaultA,
      tokenMintB: f.mintB,
      tokenVaultB: f.vaultB,
    }),
  );
}

/** An SPL token account; `nativeRent` makes it a wrapped-SOL account (its lamports = rent + amount). */
export function encodeTokenAccount(
  mint: Address,
  owner: Address,
  amount: bigint,
  nativeRent?: bigint,
): Uint8Array {
  return new Uint8Array(
    getTokenEncoder().encode({
      mint,
      owner,
      amount,
      delegate: none() as Option<Address>,
      state: AccountState.Initialized,
      isNative: nativeRent === undefined ? none() : some(nativeRent),
      delegatedAmount: 0n,
      closeAuthority: none(),
    }),
  );
}

export function encodeMintAccount(mintAuthority: Address, supply: bigint, decimals: number): Uint8Array {
  return new Uint8Array(
    getMintEncoder().encode({
      mintAuthority: some(mintAuthority),
      supply,
      decimals,
      isInitialized: true,
      freezeAuthority: none(),
    }),
  );
}
