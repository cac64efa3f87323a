/**
 * pump.fun `BondingCurve` accounts, in every length the program has written (risk-research §2.5):
 * 49 (original), 81 (+creator), 82 (+is_mayhem_mode), 83 (+is_cashback_coin), 115 (+quote_mint),
 * 124 (+creator_fee_bps, can_edit_creator_fee), 125 (+is_holder_reward) and 151 (extend_account).
 * Like the pump SDK, the data is zero-padded to the newest layout; unlike it, a field the account
 * is too short to hold comes back as null rather than as a zero that looks like real data.
 */
import {
  type Address,
  getAddressEncoder,
  getConstantCodec,
  getHiddenPrefixCodec,
  getStructCodec,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { PUMP_PROGRAM, WSOL_MINT } from '../programs.js';
import { hasDiscriminator } from './discriminator.js';
import { field } from './layout.js';
import { nonZeroAddress } from './optional-address.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

/** Anchor discriminator sha256("account:BondingCurve")[0..8]. */
export const BONDING_CURVE_DISCRIMINATOR: readonly number[] = [23, 183, 248, 55, 96, 216, 172, 96];
/** Tokens sellable on a fresh curve (793.1M of the 1B supply; the rest seeds the AMM pool). */
export const INITIAL_REAL_TOKEN_RESERVES = 793_100_000_000_000n;

const ORIGINAL_SIZE = 49;
const NEWEST_SIZE = 125;
/** Offset at which each optional field ends: the account holds the field iff its length reaches it. */
export const BONDING_CURVE_FIELD_END = {
  creator: 81,
  isMayhemMode: 82,
  isCashbackCoin: 83,
  quoteMint: 115,
  creatorFeeBps: 123,
  canEditCreatorFee: 124,
  isHolderReward: 125,
} as const;

export interface BondingCurve {
  /** Length of the account data, which tells which layout generation wrote it. */
  readonly dataLength: number;
  readonly virtualTokenReserves: bigint;
  /** Virtual reserves of the quote asset (lamports for SOL curves; formerly virtual_sol_reserves). */
  readonly virtualQuoteReserves: bigint;
  readonly realTokenReserves: bigint;
  /** Real quote reserves (lamports for SOL curves; formerly real_sol_reserves). */
  readonly realQuoteReserves: bigint;
  readonly tokenTotalSupply: bigint;
  /** Set when the curve sold out; the coin is then migrated to an AMM. */
  readonly complete: boolean;
  /** The coin's creator; null when the layout predates the field or it was never set (zero key). */
  readonly creator: Address | null;
  readonly isMayhemMode: boolean | null;
  readonly isCashbackCoin: boolean | null;
  /** The quote mint; curves from before quote mints (and the zero default) trade against SOL, given as the wSOL mint. */
  readonly quoteMint: Address;
  readonly creatorFeeBps: bigint | null;
  readonly canEditCreatorFee: boolean | null;
  readonly isHolderReward: boolean | null;
}

/** The newest layout (Borsh, names as in the IDL); older curves are its prefixes. */
export const BONDING_CURVE_LAYOUT = getHiddenPrefixCodec(
  getStructCodec([
    ['virtualTokenReserves', field.u64],
    ['virtualQuoteReserves', field.u64],
    ['realTokenReserves', field.u64],
    ['realQuoteReserves', field.u64],
    ['tokenTotalSupply', field.u64],
    ['complete', field.bool],
    ['creator', field.address],
    ['isMayhemMode', field.bool],
    ['isCashbackCoin', field.bool],
    ['quoteMint', field.address],
    ['creatorFeeBps', field.u64],
    ['canEditCreatorFee', field.bool],
    ['isHolderReward', field.bool],
  ]),
  [getConstantCodec(Uint8Array.from(BONDING_CURVE_DISCRIMINATOR))],
);

export function decodeBondingCurve(data: Uint8Array): DecodeResult<BondingCurve> {
  if (data.length < 8) return notDecoded('truncated', `${data.length} bytes, no discriminator`);
  if (!hasDiscriminator(data, BONDING_CURVE_DISCRIMINATOR)) {
    return notDecoded('wrong-kind', 'discriminator is not BondingCurve');
  }
  if (data.length < ORIGINAL_SIZE) {
    return notDecoded('truncated', `${data.length} bytes, a bonding curve has at least ${ORIGINAL_SIZE}`);
  }
  const padded = new Uint8Array(Math.max(NEWEST_SIZE, data.length));
  padded.set(data);
  const result = tryDecode(() => BONDING_CURVE_LAYOUT.decode(padded), 'bonding curve');
  if (!result.ok) return result;
  const curve = result.value;
  const has = (field: keyof typeof BONDING_CURVE_FIELD_END) => data.length >= BONDING_CURVE_FIELD_END[field];
  return decoded({
    dataLength: data.length,
    virtualTokenReserves: curve.virtualTokenReserves,
    virtualQuoteReserves: curve.virtualQuoteReserves,
    realTokenReserves: curve.realTokenReserves,
    realQuoteReserves: curve.realQuoteReserves,
    tokenTotalSupply: curve.tokenTotalSupply,
    complete: curve.complete,
    creator: has('creator') ? nonZeroAddress(curve.creator) : null,
    isMayhemMode: has('isMayhemMode') ? curve.isMayhemMode : null,
    isCashbackCoin: has('isCashbackCoin') ? curve.isCashbackCoin : null,
    quoteMint: (has('quoteMint') ? nonZeroAddress(curve.quoteMint) : null) ?? WSOL_MINT,
    creatorFeeBps: has('creatorFeeBps') ? curve.creatorFeeBps : null,
    canEditCreatorFee: has('canEditCreatorFee') ? curve.canEditCreatorFee : null,
    isHolderReward: has('isHolderReward') ? curve.isHolderReward : null,
  });
}

/**
 * How far the curve has sold, 0..1: `1 − real_token_reserves / initial_real_token_reserves`
 * (risk-research §2.5). A complete curve is 1. `initialRealTokenReserves` is the Global
 * account's value at the coin's creation; it has been 793.1M tokens for standard coins.
 */
export function curveProgress(
  curve: Pick<BondingCurve, 'realTokenReserves' | 'complete'>,
  initialRealTokenReserves: bigint = INITIAL_REAL_TOKEN_RESERVES,
): number {
  if (curve.complete) return 1;
  if (initialRealTokenReserves <= 0n || curve.realTokenReserves >= initialRealTokenReserves) return 0;
  const sold = initialRealTokenReserves - curve.realTokenReserves;
  return Number(sold) / Number(initialRealTokenReserves);
}

/** The bonding-curve PDA of `mint`: seeds ["bonding-curve", mint] under the pump program. */
export async function findBondingCurveAddress(mint: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: PUMP_PROGRAM,
    seeds: ['bonding-curve', getAddressEncoder().encode(mint)],
  });
  return pda;
}
