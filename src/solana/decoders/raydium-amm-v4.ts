/**
 * Raydium AMM v4 `AmmInfo` (program 675kPX9M…): 752 bytes, no discriminator, `#[repr(C, packed)]`
 * (raydium-io/raydium-amm program/src/state.rs). Checked against the real SOL/USDC pool 58oQChx4…
 * (fixture raydium-amm-v4-58oQChx4-sol-usdc.json).
 */
import type { Address } from '@solana/kit';
import { addressAt, checkLayout, u64At } from './pool-fields.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

export const RAYDIUM_AMM_V4_SIZE = 752;
/**
 * Offsets of the coin (base) and pc (quote) vaults: after 16 u64 parameters, 8 u64 fees and the
 * StateData (8 u64, four u128 and two u64 counters) — 336 and 368, as in Raydium's SDK layout.
 * Filters (getProgramAccounts memcmp) find a pool by its vault at these offsets.
 */
export const AMM_V4_COIN_VAULT_OFFSET = 336;
export const AMM_V4_PC_VAULT_OFFSET = 368;
/** AmmStatus values the program writes (1 Initialized … 7 WaitingTrade). */
const MAX_STATUS = 7;

export interface RaydiumAmmV4Pool {
  readonly status: bigint;
  /** The base ("coin") and quote ("pc") sides. */
  readonly mintA: Address;
  readonly mintB: Address;
  readonly vaultA: Address;
  readonly vaultB: Address;
  /** PnL owed out of each vault: the tradable reserve is the vault balance minus it. */
  readonly pnlA: bigint;
  readonly pnlB: bigint;
  readonly lpMint: Address;
  /** LP units the pool counts as outstanding (LP burned with the token program stays counted here). */
  readonly lpSupply: bigint;
  readonly openBookMarket: Address;
  /** The swap fee, numerator over denominator (the fees struct's swap_fee_*, offsets 176 and 184). */
  readonly swapFeeNumerator: bigint;
  readonly swapFeeDenominator: bigint;
}

export function decodeRaydiumAmmV4(data: Uint8Array): DecodeResult<RaydiumAmmV4Pool> {
  const checked = checkLayout(data, null, RAYDIUM_AMM_V4_SIZE, 'Raydium AMM v4 AmmInfo');
  if (!checked.ok) return checked;
  const status = u64At(data, 0);
  if (status === 0n || status > BigInt(MAX_STATUS)) {
    return notDecoded('wrong-kind', `status ${status} is not an AMM v4 status`);
  }
  return decoded({
    status,
    pnlA: u64At(data, 192),
    pnlB: u64At(data, 200),
    vaultA: addressAt(data, AMM_V4_COIN_VAULT_OFFSET),
    vaultB: addressAt(data, AMM_V4_PC_VAULT_OFFSET),
    mintA: addressAt(data, 400),
    mintB: addressAt(data, 432),
    lpMint: addressAt(data, 464),
    openBookMarket: addressAt(data, 528),
    lpSupply: u64At(data, 720),
    swapFeeNumerator: u64At(data, 176),
    swapFeeDenominator: u64At(data, 184),
  });
}
