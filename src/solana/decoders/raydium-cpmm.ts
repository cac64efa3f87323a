/**
 * Raydium CPMM (CP-Swap, program CPMMoo8L…) `PoolState`, 637 bytes (raydium-io/raydium-cp-swap
 * programs/cp-swap/src/states/pool.rs), and the PDAs that make a CPMM pool derivable from its two
 * mints: config ["amm_config", index u16 BE], pool ["pool", config, token0, token1], vault
 * ["pool_vault", pool, mint], LP mint ["pool_lp_mint", pool]. All four are checked against the real
 * pool FmNz8z2o… and config 2fGXL8uh… (fixtures raydium-cpmm-*.json).
 */
import type { Address } from '@solana/kit';
import { keptAddressEncoder } from '../address-bytes.js';
import { RAYDIUM_CPMM_PROGRAM } from '../programs.js';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { pdaOf } from './program-pda.js';
import { type DecodeResult, decoded } from './result.js';

const { address, u8, u64 } = field;

/** sha256("account:PoolState")[0..8] — the same bytes as Raydium CLMM's PoolState: route by owner. */
export const CPMM_POOL_DISCRIMINATOR: readonly number[] = [247, 237, 227, 245, 215, 195, 222, 70];
export const RAYDIUM_CPMM_POOL_SIZE = 637;
/** status bit 2: swaps disabled. */
const SWAP_DISABLED = 0b100;

export interface RaydiumCpmmPool {
  readonly ammConfig: Address;
  readonly creator: Address;
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  readonly lpMint: Address;
  readonly status: number;
  readonly swapEnabled: boolean;
  /** LP units the pool counts as outstanding (LP burned with the token program stays counted here). */
  readonly lpSupply: bigint;
  /** Protocol and fund fees still in the vaults: not the liquidity providers'. */
  readonly feesA: bigint;
  readonly feesB: bigint;
  readonly openTime: bigint;
}

/** PoolState's fields the scan and the sandbox use, at their offsets; the rest is not read. */
export const CPMM_POOL_LAYOUT = layoutCodec(RAYDIUM_CPMM_POOL_SIZE, CPMM_POOL_DISCRIMINATOR, {
  ammConfig: [8, address],
  poolCreator: [40, address],
  token0Vault: [72, address],
  token1Vault: [104, address],
  lpMint: [136, address],
  token0Mint: [168, address],
  token1Mint: [200, address],
  token0Program: [232, address],
  token1Program: [264, address],
  authBump: [328, u8],
  status: [329, u8],
  lpMintDecimals: [330, u8],
  mint0Decimals: [331, u8],
  mint1Decimals: [332, u8],
  /** The LP the pool counts as issued. */
  lpSupply: [333, u64],
  protocolFeesToken0: [341, u64],
  protocolFeesToken1: [349, u64],
  fundFeesToken0: [357, u64],
  fundFeesToken1: [365, u64],
  openTime: [373, u64],
});

export function decodeRaydiumCpmmPool(data: Uint8Array): DecodeResult<RaydiumCpmmPool> {
  const checked = checkLayout(
    data,
    CPMM_POOL_DISCRIMINATOR,
    RAYDIUM_CPMM_POOL_SIZE,
    'Raydium CPMM PoolState',
  );
  if (!checked.ok) return checked;
  const pool = CPMM_POOL_LAYOUT.decode(data);
  return decoded({
    ammConfig: pool.ammConfig,
    creator: pool.poolCreator,
    vaultA: pool.token0Vault,
    vaultB: pool.token1Vault,
    lpMint: pool.lpMint,
    mintA: pool.token0Mint,
    mintB: pool.token1Mint,
    status: pool.status,
    swapEnabled: (pool.status & SWAP_DISABLED) === 0,
    lpSupply: pool.lpSupply,
    feesA: pool.protocolFeesToken0 + pool.fundFeesToken0,
    feesB: pool.protocolFeesToken1 + pool.fundFeesToken1,
    openTime: pool.openTime,
  });
}

// Kept bytes (address-bytes.ts): the same mints and configs seed pool after pool.
const encoder = keptAddressEncoder;
const pda = pdaOf(RAYDIUM_CPMM_PROGRAM);

/** CPMM orders a pool's mints by their bytes: token0 < token1. */
export function cpmmMintOrder(a: Address, b: Address): [Address, Address] {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < 32; i++) if (x[i] !== y[i]) return (x[i] ?? 0) < (y[i] ?? 0) ? [a, b] : [b, a];
  return [a, b];
}

export function findCpmmConfigAddress(index: number): Promise<Address> {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, index, false);
  return pda(['amm_config', bytes]);
}

export async function findCpmmPoolAddress(config: Address, a: Address, b: Address): Promise<Address> {
  const [token0, token1] = cpmmMintOrder(a, b);
  return pda(['pool', encoder.encode(config), encoder.encode(token0), encoder.encode(token1)]);
}

export const findCpmmVaultAddress = (pool: Address, mint: Address): Promise<Address> =>
  pda(['pool_vault', encoder.encode(pool), encoder.encode(mint)]);

export const findCpmmLpMintAddress = (pool: Address): Promise<Address> =>
  pda(['pool_lp_mint', encoder.encode(pool)]);

/**
 * Trade fee rate (over 1e6) of the configs at indexes 0–3, the ones the scan derives CPMM pools
 * from: 0.25 %, 1 %, 2 %, 4 % (index 2's AmmConfig, fixture raydium-cpmm-amm-config-2fGXL8uh.json,
 * states 20 000).
 */
export const CPMM_TRADE_FEE_RATES: readonly number[] = [2_500, 10_000, 20_000, 40_000];
