/**
 * Meteora DLMM (program LBUZKhRx…) `LbPair`, 904 bytes, zero-copy (MeteoraAg/dlmm-sdk IDL). Checked
 * against two real pairs (fixtures meteora-dlmm-lbpair-*.json). Reserves are PDAs [lb_pair, mint]
 * owned by the pair. The price of the active bin is (1 + bin_step / 10 000)^active_id, X in Y.
 */
import { type Address, getAddressEncoder } from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { METEORA_DLMM_PROGRAM } from '../programs.js';
import { addressAt, checkLayout, i32At, u8At, u16At, u32At } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

/** sha256("account:LbPair")[0..8]. */
export const LB_PAIR_DISCRIMINATOR: readonly number[] = [33, 11, 49, 98, 181, 101, 177, 13];
export const LB_PAIR_SIZE = 904;

export interface LbPair {
  readonly activeId: number;
  readonly binStep: number;
  /** 0 = enabled. */
  readonly status: number;
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  /** Static fee parameters: the base fee is base_factor × bin_step × 10 × 10^power over 1e9. */
  readonly baseFactor: number;
  readonly baseFeePowerFactor: number;
  readonly variableFeeControl: number;
  /** The volatility accumulator as last written: the variable fee in force now. */
  readonly volatilityAccumulator: number;
}

export function decodeLbPair(data: Uint8Array): DecodeResult<LbPair> {
  const checked = checkLayout(data, LB_PAIR_DISCRIMINATOR, LB_PAIR_SIZE, 'Meteora DLMM LbPair');
  if (!checked.ok) return checked;
  return decoded({
    activeId: i32At(data, 76),
    binStep: u16At(data, 80),
    status: u8At(data, 82),
    mintA: addressAt(data, 88),
    mintB: addressAt(data, 120),
    vaultA: addressAt(data, 152),
    vaultB: addressAt(data, 184),
    baseFactor: u16At(data, 8),
    variableFeeControl: u32At(data, 16),
    baseFeePowerFactor: u8At(data, 34),
    volatilityAccumulator: u32At(data, 40),
  });
}

/** The price of one raw unit of X in raw units of Y at the active bin. */
export const lbPairPrice = (pair: LbPair): number => (1 + pair.binStep / 10_000) ** pair.activeId;

export async function findLbPairReserve(pair: Address, mint: Address): Promise<Address> {
  const encoder = getAddressEncoder();
  const [pda] = await findProgramDerivedAddress({
    programAddress: METEORA_DLMM_PROGRAM,
    seeds: [encoder.encode(pair), encoder.encode(mint)],
  });
  return pda;
}
