/**
 * Meteora DAMM v2 (cp-amm, program cpamdpZC…) `Pool`, 1112 bytes, zero-copy (MeteoraAg/damm-v2
 * programs/cp-amm/src/state/pool.rs). Checked against the real pool 6CXXieC3… (fixture
 * meteora-damm-v2-pool-6CXXieC3.json). Liquidity is held in position NFTs, not an LP mint; the pool
 * itself counts the liquidity locked for ever (`permanent_lock_liquidity`). After `liquidity` and a
 * u128 of padding come the fees the vaults hold for others: protocol_a_fee, protocol_b_fee,
 * partner_a_fee, partner_b_fee (u64 each, offsets 392–416; Meteora's cp_amm IDL).
 *
 * Pool PDAs (program seeds in constants.rs and initialize_pool/*.rs, as MeteoraAg/damm-v2-sdk
 * pda.ts derives them), the two mints ordered max then min by their bytes: the customizable pool
 * ["cpool", max, min], a config's pool ["pool", config, max, min]; vaults ["token_vault", mint, pool].
 */
import { type Address, address, getAddressEncoder } from '@solana/kit';
import { METEORA_DAMM_V2_PROGRAM } from '../programs.js';
import { maxMinBytes } from './meteora-pair-seeds.js';
import { addressAt, checkLayout, u8At, u64At, u128At } from './pool-fields.js';
import { pdaOf } from './program-pda.js';
import { POOL_DISCRIMINATOR } from './pumpswap-pool.js';
import { type DecodeResult, decoded } from './result.js';

export const DAMM_V2_POOL_SIZE = 1112;

export interface DammV2Pool {
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  readonly liquidity: bigint;
  /** Q64.64 square root of the price of A in B (raw units). */
  readonly sqrtPriceX64: bigint;
  /** 0 = enabled. */
  readonly status: number;
  readonly permanentLockLiquidity: bigint;
  readonly creator: Address;
  /** Protocol fees still in the vaults: not the liquidity providers'. */
  readonly protocolFeeA: bigint;
  readonly protocolFeeB: bigint;
  /** The partner's (the pool's launch platform's) fees still in the vaults: not the providers' either. */
  readonly partnerFeeA: bigint;
  readonly partnerFeeB: bigint;
  /** The base fee's cliff numerator over 1e9 (pool_fees.base_fee, offset 8): the fee before any scheduled reduction. */
  readonly cliffFeeNumerator: bigint;
  /** The price range the pool's liquidity spans (Q64.64 square roots). */
  readonly sqrtMinPriceX64: bigint;
  readonly sqrtMaxPriceX64: bigint;
}

export function decodeDammV2Pool(data: Uint8Array): DecodeResult<DammV2Pool> {
  // "account:Pool" is PumpSwap's discriminator too: the caller routes by owner first.
  const checked = checkLayout(data, POOL_DISCRIMINATOR, DAMM_V2_POOL_SIZE, 'Meteora DAMM v2 Pool');
  if (!checked.ok) return checked;
  return decoded({
    mintA: addressAt(data, 168),
    mintB: addressAt(data, 200),
    vaultA: addressAt(data, 232),
    vaultB: addressAt(data, 264),
    liquidity: u128At(data, 360),
    sqrtPriceX64: u128At(data, 456),
    status: u8At(data, 481),
    permanentLockLiquidity: u128At(data, 552),
    creator: addressAt(data, 648),
    protocolFeeA: u64At(data, 392),
    protocolFeeB: u64At(data, 400),
    partnerFeeA: u64At(data, 408),
    partnerFeeB: u64At(data, 416),
    cliffFeeNumerator: u64At(data, 8),
    sqrtMinPriceX64: u128At(data, 424),
    sqrtMaxPriceX64: u128At(data, 440),
  });
}

/**
 * The DAMM v2 configs Meteora's bonding curve (DBC) graduates tokens into, one per fee option
 * (@meteora-ag/dynamic-bonding-curve-sdk constants.ts DAMM_V2_MIGRATION_FEE_ADDRESS: 25, 30, 100,
 * 200, 400, 600 bps and customizable). The real pool 6CXXieC3… is the 200 bps config's pool.
 */
export const DAMM_V2_DBC_CONFIGS: readonly Address[] = [
  address('7F6dnUcRuyM2TwR8myT1dYypFXpPSxqwKNSFNkxyNESd'),
  address('2nHK1kju6XjphBLbNxpM5XRGFj7p9U8vvNzyZiha1z6k'),
  address('Hv8Lmzmnju6m7kcokVKvwqz7QPmdX9XfKjJsXz8RXcjp'),
  address('2c4cYd4reUYVRAB9kUUkrq55VPyy2FNQ3FDL4o12JXmq'),
  address('AkmQWebAwFvWk55wBoCr5D62C6VVDTzi84NJuD9H7cFD'),
  address('DbCRBj8McvPYHJG1ukj8RE15h2dCNUdTAESG49XpQ44u'),
  address('A8gMrEPJkacWkcb3DGwtJwTe16HktSEfvwtuDh2MCtck'),
];

const encoder = getAddressEncoder();
const pda = pdaOf(METEORA_DAMM_V2_PROGRAM);

export function findDammV2CustomizablePool(a: Address, b: Address): Promise<Address> {
  return pda(['cpool', ...maxMinBytes(a, b)]);
}

export function findDammV2ConfigPool(config: Address, a: Address, b: Address): Promise<Address> {
  return pda(['pool', encoder.encode(config), ...maxMinBytes(a, b)]);
}

export const findDammV2TokenVault = (mint: Address, pool: Address): Promise<Address> =>
  pda(['token_vault', encoder.encode(mint), encoder.encode(pool)]);
