/**
 * Pure: each pool family's swap fee, from the bytes the scan read (the pool itself, or the config
 * account it names), as a fraction. A fee that cannot be read is null: the pool is then not quoted.
 */
import type { Address } from '@solana/kit';
import type { LbPair } from '../../../solana/decoders/meteora-dlmm.js';
import { decodePumpSwapGlobalConfig } from '../../../solana/decoders/pumpswap-pool.js';
import { decodeClmmTradeFeeRate } from '../../../solana/decoders/raydium-clmm.js';
import { CPMM_TRADE_FEE_RATES } from '../../../solana/decoders/raydium-cpmm.js';
import { findProgramAddressSync } from '../../../solana/program-address.js';
import { RAYDIUM_CPMM_PROGRAM } from '../../../solana/programs.js';
import type { RawAccount } from '../../token-facts/model.js';
import type { Fee } from './model.js';

/** pump.fun's fee on a curve trade when the curve names none: 0.95 % protocol + 0.30 % creator. */
export const PUMP_PROTOCOL_FEE_BPS = 95n;
export const PUMP_CREATOR_FEE_BPS = 30n;

/** PumpSwap: LP + protocol fee from its GlobalConfig, + the coin creator's where the config has it. */
export function pumpSwapFee(config: RawAccount | null | undefined): Fee | null {
  if (!config) return null;
  const decoded = decodePumpSwapGlobalConfig(config.data);
  if (!decoded.ok) return null;
  const { lpFeeBasisPoints, protocolFeeBasisPoints, coinCreatorFeeBasisPoints } = decoded.value;
  return { num: lpFeeBasisPoints + protocolFeeBasisPoints + (coinCreatorFeeBasisPoints ?? 0n), den: 10_000n };
}

let cpmmConfigs: Map<Address, number> | null = null;

/** CPMM: the trade fee of the pool's config, for the configs the scan derives pools from. */
export function cpmmFee(ammConfig: Address): Fee | null {
  cpmmConfigs ??= new Map(
    CPMM_TRADE_FEE_RATES.map((rate, index) => {
      const seed = new Uint8Array([index >> 8, index & 0xff]);
      return [findProgramAddressSync(['amm_config', seed], RAYDIUM_CPMM_PROGRAM)[0], rate] as const;
    }),
  );
  const rate = cpmmConfigs.get(ammConfig);
  return rate === undefined ? null : { num: BigInt(rate), den: 1_000_000n };
}

/** CLMM: its AmmConfig's trade fee rate over 1e6. */
export function clmmFee(config: RawAccount | null | undefined): Fee | null {
  const rate = config ? decodeClmmTradeFeeRate(config.data) : null;
  return rate?.ok ? { num: BigInt(rate.value), den: 1_000_000n } : null;
}

/** DLMM's fee cap: 10 % (MAX_FEE_RATE over FEE_PRECISION 1e9). */
const DLMM_MAX_FEE = 100_000_000n;

/**
 * DLMM: base fee base_factor × bin_step × 10 × 10^power, plus the variable fee
 * ⌈(volatility_accumulator × bin_step)² × variable_fee_control / 10^11⌉, over 1e9, capped at 10 %.
 */
export function dlmmFee(pair: LbPair): Fee {
  const step = BigInt(pair.binStep);
  const base = BigInt(pair.baseFactor) * step * 10n * 10n ** BigInt(Math.min(pair.baseFeePowerFactor, 9));
  const v = BigInt(pair.volatilityAccumulator) * step;
  const variable = (v * v * BigInt(pair.variableFeeControl) + 99_999_999_999n) / 100_000_000_000n;
  const total = base + variable;
  return { num: total > DLMM_MAX_FEE ? DLMM_MAX_FEE : total, den: 1_000_000_000n };
}
