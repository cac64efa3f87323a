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
import { type Address, address } from '@solana/kit';
import { keptAddressEncoder } from '../address-bytes.js';
import { METEORA_DAMM_V2_PROGRAM } from '../programs.js';
import { field, layoutCodec } from './layout.js';
import { maxMinBytes } from './meteora-pair-seeds.js';
import { checkLayout } from './pool-fields.js';
import { pdaOf } from './program-pda.js';
import { POOL_DISCRIMINATOR } from './pumpswap-pool.js';
import { type DecodeResult, decoded } from './result.js';

const { address: addressCodec, u8, u64, u128 } = field;

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

/** The Pool's fields the scan and the sandbox use (names as in pool.rs), at their offsets. */
export const DAMM_V2_POOL_LAYOUT = layoutCodec(DAMM_V2_POOL_SIZE, POOL_DISCRIMINATOR, {
  cliffFeeNumerator: [8, u64],
  tokenAMint: [168, addressCodec],
  tokenBMint: [200, addressCodec],
  tokenAVault: [232, addressCodec],
  tokenBVault: [264, addressCodec],
  liquidity: [360, u128],
  protocolAFee: [392, u64],
  protocolBFee: [400, u64],
  partnerAFee: [408, u64],
  partnerBFee: [416, u64],
  sqrtMinPrice: [424, u128],
  sqrtMaxPrice: [440, u128],
  sqrtPrice: [456, u128],
  activationType: [480, u8],
  poolStatus: [481, u8],
  permanentLockLiquidity: [552, u128],
  creator: [648, addressCodec],
  tokenAAmount: [680, u64],
  tokenBAmount: [688, u64],
  layoutVersion: [696, u8],
});

export function decodeDammV2Pool(data: Uint8Array): DecodeResult<DammV2Pool> {
  // "account:Pool" is PumpSwap's discriminator too: the caller routes by owner first.
  const checked = checkLayout(data, POOL_DISCRIMINATOR, DAMM_V2_POOL_SIZE, 'Meteora DAMM v2 Pool');
  if (!checked.ok) return checked;
  const pool = DAMM_V2_POOL_LAYOUT.decode(data);
  return decoded({
    mintA: pool.tokenAMint,
    mintB: pool.tokenBMint,
    vaultA: pool.tokenAVault,
    vaultB: pool.tokenBVault,
    liquidity: pool.liquidity,
    sqrtPriceX64: pool.sqrtPrice,
    status: pool.poolStatus,
    permanentLockLiquidity: pool.permanentLockLiquidity,
    creator: pool.creator,
    protocolFeeA: pool.protocolAFee,
    protocolFeeB: pool.protocolBFee,
    partnerFeeA: pool.partnerAFee,
    partnerFeeB: pool.partnerBFee,
    cliffFeeNumerator: pool.cliffFeeNumerator,
    sqrtMinPriceX64: pool.sqrtMinPrice,
    sqrtMaxPriceX64: pool.sqrtMaxPrice,
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

// Kept bytes (address-bytes.ts): the same mints and configs seed pool after pool.
const encoder = keptAddressEncoder;
const pda = pdaOf(METEORA_DAMM_V2_PROGRAM);

export function findDammV2CustomizablePool(a: Address, b: Address): Promise<Address> {
  return pda(['cpool', ...maxMinBytes(a, b)]);
}

export function findDammV2ConfigPool(config: Address, a: Address, b: Address): Promise<Address> {
  return pda(['pool', encoder.encode(config), ...maxMinBytes(a, b)]);
}

export const findDammV2TokenVault = (mint: Address, pool: Address): Promise<Address> =>
  pda(['token_vault', encoder.encode(mint), encoder.encode(pool)]);
