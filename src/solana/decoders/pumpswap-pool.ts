/**
 * PumpSwap (pump AMM) `Pool` and `GlobalConfig` accounts, and the canonical pool PDA that pump.fun's
 * `migrate` creates for a graduated coin (risk-research §2.5).
 *
 * Pool: the 211-byte original layout is checked against a real pool (fixture
 * pumpswap-pool-2fWkVf-wsol.json); `coin_creator` follows it in pools extended for creator fees
 * (pump-public-docs PUMP_SWAP_CREATOR_FEE_README) and `is_mayhem_mode` after that (pump SDK).
 * Later fields (cashback, virtual quote reserves, creator fee settings) are not decoded: pools are
 * extended to 300 zero bytes, so their presence cannot be told from the length.
 * GlobalConfig: the 313-byte layout is checked against the real account; newer trailing fields are ignored.
 */
import {
  type Address,
  fixDecoderSize,
  getAddressDecoder,
  getAddressEncoder,
  getArrayDecoder,
  getBooleanDecoder,
  getBytesDecoder,
  getStructDecoder,
  getU8Decoder,
  getU16Encoder,
  getU64Decoder,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM, WSOL_MINT } from '../programs.js';
import { hasDiscriminator } from './discriminator.js';
import { field, layoutCodec } from './layout.js';
import { nonZeroAddress } from './optional-address.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

const { address: addressCodec } = field;

/** sha256("account:Pool")[0..8]. */
export const POOL_DISCRIMINATOR: readonly number[] = [241, 154, 109, 4, 17, 177, 109, 188];
/** sha256("account:GlobalConfig")[0..8]. */
export const GLOBAL_CONFIG_DISCRIMINATOR: readonly number[] = [149, 8, 156, 202, 160, 252, 176, 217];

const POOL_BASE_SIZE = 211;
const COIN_CREATOR_END = POOL_BASE_SIZE + 32;
const MAYHEM_END = COIN_CREATOR_END + 1;
const GLOBAL_CONFIG_SIZE = 313;
/** `coin_creator_fee_basis_points` u64 follows the fee recipients in configs extended for creator fees. */
const COIN_CREATOR_FEE_END = GLOBAL_CONFIG_SIZE + 8;

export interface PumpSwapPool {
  readonly dataLength: number;
  readonly poolBump: number;
  readonly index: number;
  /** Pool creator; for canonical pump pools the pump `pool-authority` PDA of the base mint. */
  readonly creator: Address;
  readonly baseMint: Address;
  readonly quoteMint: Address;
  readonly lpMint: Address;
  readonly poolBaseTokenAccount: Address;
  readonly poolQuoteTokenAccount: Address;
  /** LP tokens outstanding (pump burns the LP it receives at migration). */
  readonly lpSupply: bigint;
  /** The coin creator who earns creator fees; null in pools that predate the field or where it is unset. */
  readonly coinCreator: Address | null;
  readonly isMayhemMode: boolean | null;
}

/** GlobalConfig.disable_flags: the protocol admin can halt each of these for every pool. */
export interface PumpSwapDisabled {
  readonly createPool: boolean;
  readonly deposit: boolean;
  readonly withdraw: boolean;
  readonly buy: boolean;
  readonly sell: boolean;
}

export interface PumpSwapGlobalConfig {
  readonly dataLength: number;
  readonly admin: Address;
  readonly lpFeeBasisPoints: bigint;
  readonly protocolFeeBasisPoints: bigint;
  readonly disableFlags: number;
  readonly disabled: PumpSwapDisabled;
  readonly protocolFeeRecipients: readonly Address[];
  /** The coin creator's cut of each trade; null in a config that predates creator fees (313 bytes). */
  readonly coinCreatorFeeBasisPoints: bigint | null;
}

/** The fields every pool has, Borsh (names as in the IDL). */
const POOL_BASE_FIELDS = {
  poolBump: [8, field.u8],
  index: [9, field.u16],
  creator: [11, addressCodec],
  baseMint: [43, addressCodec],
  quoteMint: [75, addressCodec],
  lpMint: [107, addressCodec],
  poolBaseTokenAccount: [139, addressCodec],
  poolQuoteTokenAccount: [171, addressCodec],
  lpSupply: [203, field.u64],
} as const;
const POOL_BASE_LAYOUT = layoutCodec(POOL_BASE_SIZE, POOL_DISCRIMINATOR, POOL_BASE_FIELDS);
/** A pool with the fields added since: `coin_creator`, then `is_mayhem_mode`. */
export const PUMPSWAP_POOL_LAYOUT = layoutCodec(MAYHEM_END, POOL_DISCRIMINATOR, {
  ...POOL_BASE_FIELDS,
  coinCreator: [POOL_BASE_SIZE, addressCodec],
  isMayhemMode: [COIN_CREATOR_END, field.bool],
});

const globalConfigDecoder = getStructDecoder([
  ['discriminator', fixDecoderSize(getBytesDecoder(), 8)],
  ['admin', getAddressDecoder()],
  ['lpFeeBasisPoints', getU64Decoder()],
  ['protocolFeeBasisPoints', getU64Decoder()],
  ['disableFlags', getU8Decoder()],
  ['protocolFeeRecipients', getArrayDecoder(getAddressDecoder(), { size: 8 })],
]);

export function decodePumpSwapPool(data: Uint8Array): DecodeResult<PumpSwapPool> {
  if (!hasDiscriminator(data, POOL_DISCRIMINATOR)) {
    return data.length < 8
      ? notDecoded('truncated', `${data.length} bytes, no discriminator`)
      : notDecoded('wrong-kind', 'discriminator is not PumpSwap Pool');
  }
  if (data.length < POOL_BASE_SIZE) {
    return notDecoded('truncated', `${data.length} bytes, a pool has at least ${POOL_BASE_SIZE}`);
  }
  const base = tryDecode(() => POOL_BASE_LAYOUT.decode(data), 'pool');
  if (!base.ok) return base;
  const pool = base.value;
  const coinCreator =
    data.length >= COIN_CREATOR_END
      ? nonZeroAddress(getAddressDecoder().decode(data.subarray(POOL_BASE_SIZE, COIN_CREATOR_END)))
      : null;
  const isMayhemMode =
    data.length >= MAYHEM_END
      ? getBooleanDecoder().decode(data.subarray(COIN_CREATOR_END, MAYHEM_END))
      : null;
  return decoded({ dataLength: data.length, ...pool, coinCreator, isMayhemMode });
}

function disabledOperations(flags: number): PumpSwapDisabled {
  return {
    createPool: (flags & 0b1) !== 0,
    deposit: (flags & 0b10) !== 0,
    withdraw: (flags & 0b100) !== 0,
    buy: (flags & 0b1000) !== 0,
    sell: (flags & 0b10000) !== 0,
  };
}

export function decodePumpSwapGlobalConfig(data: Uint8Array): DecodeResult<PumpSwapGlobalConfig> {
  if (!hasDiscriminator(data, GLOBAL_CONFIG_DISCRIMINATOR)) {
    return data.length < 8
      ? notDecoded('truncated', `${data.length} bytes, no discriminator`)
      : notDecoded('wrong-kind', 'discriminator is not PumpSwap GlobalConfig');
  }
  if (data.length < GLOBAL_CONFIG_SIZE) {
    return notDecoded('truncated', `${data.length} bytes, GlobalConfig has at least ${GLOBAL_CONFIG_SIZE}`);
  }
  const result = tryDecode(() => globalConfigDecoder.decode(data), 'global config');
  if (!result.ok) return result;
  const { discriminator: _discriminator, ...config } = result.value;
  return decoded({
    dataLength: data.length,
    ...config,
    disabled: disabledOperations(config.disableFlags),
    coinCreatorFeeBasisPoints:
      data.length >= COIN_CREATOR_FEE_END ? field.u64.decode(data, GLOBAL_CONFIG_SIZE) : null,
  });
}

/** pump's `pool-authority` PDA of `mint` (seeds ["pool-authority", mint] under pump): creator of canonical pools. */
export async function findPumpPoolAuthority(mint: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: PUMP_PROGRAM,
    seeds: ['pool-authority', getAddressEncoder().encode(mint)],
  });
  return pda;
}

/** A PumpSwap pool PDA: seeds ["pool", index u16 LE, creator, base mint, quote mint]. */
export async function findPumpSwapPoolAddress(
  creator: Address,
  baseMint: Address,
  quoteMint: Address,
  index = 0,
): Promise<Address> {
  const encoder = getAddressEncoder();
  const [pda] = await findProgramDerivedAddress({
    programAddress: PUMPSWAP_PROGRAM,
    seeds: [
      'pool',
      getU16Encoder().encode(index),
      encoder.encode(creator),
      encoder.encode(baseMint),
      encoder.encode(quoteMint),
    ],
  });
  return pda;
}

/** The pool pump.fun's `migrate` creates for a graduated coin: index 0, creator = pool authority, quote wSOL. */
export async function findCanonicalPumpPoolAddress(
  mint: Address,
  quoteMint: Address = WSOL_MINT,
): Promise<Address> {
  return findPumpSwapPoolAddress(await findPumpPoolAuthority(mint), mint, quoteMint, 0);
}

/** The LP mint of a PumpSwap pool: seeds ["pool_lp_mint", pool]. */
export async function findPumpSwapLpMint(pool: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: PUMPSWAP_PROGRAM,
    seeds: ['pool_lp_mint', getAddressEncoder().encode(pool)],
  });
  return pda;
}
