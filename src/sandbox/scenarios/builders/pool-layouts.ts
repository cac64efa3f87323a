/**
 * Raydium CPMM PoolState, Raydium AMM v4 AmmInfo and Orca Whirlpool accounts in their real layouts (the offsets the
 * decoders read, checked there against real mainnet bytes), and SPL token accounts and mints
 * written directly (pool vaults and LP mints belong to the DEX programs, which the sandbox does
 * not run).
 */
import { type Address, none, type Option, some } from '@solana/kit';
import { AccountState, getMintEncoder, getTokenEncoder } from '@solana-program/token';
import { WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_SIZE } from '../../../solana/decoders/orca-whirlpool.js';
import {
  AMM_V4_COIN_VAULT_OFFSET,
  AMM_V4_PC_VAULT_OFFSET,
  RAYDIUM_AMM_V4_SIZE,
} from '../../../solana/decoders/raydium-amm-v4.js';
import { CPMM_POOL_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE } from '../../../solana/decoders/raydium-cpmm.js';
import { pubkey, u16, u64 } from './bytes.js';

export const u128 = (value: bigint) => {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, value & (2n ** 64n - 1n), true);
  view.setBigUint64(8, value >> 64n, true);
  return bytes;
};

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
  const data = new Uint8Array(RAYDIUM_CPMM_POOL_SIZE);
  data.set(CPMM_POOL_DISCRIMINATOR, 0);
  const keys: [number, Address][] = [
    [8, f.ammConfig],
    [40, f.creator],
    [72, f.vault0],
    [104, f.vault1],
    [136, f.lpMint],
    [168, f.mint0],
    [200, f.mint1],
    [232, f.tokenProgram],
    [264, f.tokenProgram],
  ];
  for (const [offset, key] of keys) data.set(pubkey(key), offset);
  data[328] = f.authBump;
  data[330] = 9; // lp decimals
  data[331] = 6;
  data[332] = 9;
  data.set(u64(f.lpSupply), 333);
  data.set(u64(f.openTime), 373);
  return data;
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
  const data = new Uint8Array(RAYDIUM_AMM_V4_SIZE);
  data.set(u64(6n), 0);
  data.set(u64(BigInt(f.nonce)), 8);
  data.set(u64(BigInt(f.coinDecimals)), 32);
  data.set(u64(BigInt(f.pcDecimals)), 40);
  data.set(u64(25n), 144); // trade fee numerator (0.25 %)
  data.set(u64(10_000n), 152); // trade fee denominator
  data.set(u64(25n), 176); // swap fee numerator (0.25 %, what a swap pays)
  data.set(u64(10_000n), 184); // swap fee denominator
  const keys: [number, Address][] = [
    [AMM_V4_COIN_VAULT_OFFSET, f.coinVault],
    [AMM_V4_PC_VAULT_OFFSET, f.pcVault],
    [400, f.coinMint],
    [432, f.pcMint],
    [464, f.lpMint],
    [496, f.openOrders],
    [528, f.market],
    [560, f.marketProgram],
    [592, f.targetOrders],
    [688, f.ammOwner],
  ];
  for (const [offset, key] of keys) data.set(pubkey(key), offset);
  data.set(u64(f.lpAmount), 720);
  return data;
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
  const data = new Uint8Array(WHIRLPOOL_SIZE);
  data.set(WHIRLPOOL_DISCRIMINATOR, 0);
  data.set(pubkey(f.config), 8);
  data[40] = f.bump;
  data.set(u16(f.tickSpacing), 41);
  data.set(u16(f.tickSpacing), 43);
  data.set(u16(3000), 45); // fee rate, hundredths of a bp
  data.set(u128(f.liquidity), 49);
  data.set(u128(f.sqrtPriceX64), 65);
  new DataView(data.buffer).setInt32(81, f.tickCurrent ?? 0, true);
  data.set(pubkey(f.mintA), 101);
  data.set(pubkey(f.vaultA), 133);
  data.set(pubkey(f.mintB), 181);
  data.set(pubkey(f.vaultB), 213);
  return data;
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
