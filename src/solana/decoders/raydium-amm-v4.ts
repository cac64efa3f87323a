/**
 * Raydium AMM v4 `AmmInfo` (program 675kPX9M…): 752 bytes, no discriminator, `#[repr(C, packed)]`
 * (raydium-io/raydium-amm program/src/state.rs). Checked against the real SOL/USDC pool 58oQChx4…
 * (fixture raydium-amm-v4-58oQChx4-sol-usdc.json).
 */
import type { Address } from '@solana/kit';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

const { address, u64 } = field;

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

/** AmmInfo's fields the scan and the sandbox use (names as in state.rs), at their offsets. */
export const AMM_V4_LAYOUT = layoutCodec(RAYDIUM_AMM_V4_SIZE, null, {
  status: [0, u64],
  nonce: [8, u64],
  coinDecimals: [32, u64],
  pcDecimals: [40, u64],
  tradeFeeNumerator: [144, u64],
  tradeFeeDenominator: [152, u64],
  swapFeeNumerator: [176, u64],
  swapFeeDenominator: [184, u64],
  needTakePnlCoin: [192, u64],
  needTakePnlPc: [200, u64],
  coinVault: [AMM_V4_COIN_VAULT_OFFSET, address],
  pcVault: [AMM_V4_PC_VAULT_OFFSET, address],
  coinVaultMint: [400, address],
  pcVaultMint: [432, address],
  lpMint: [464, address],
  openOrders: [496, address],
  market: [528, address],
  marketProgram: [560, address],
  targetOrders: [592, address],
  ammOwner: [688, address],
  lpAmount: [720, u64],
});

export function decodeRaydiumAmmV4(data: Uint8Array): DecodeResult<RaydiumAmmV4Pool> {
  const checked = checkLayout(data, null, RAYDIUM_AMM_V4_SIZE, 'Raydium AMM v4 AmmInfo');
  if (!checked.ok) return checked;
  const pool = AMM_V4_LAYOUT.decode(data);
  if (pool.status === 0n || pool.status > BigInt(MAX_STATUS)) {
    return notDecoded('wrong-kind', `status ${pool.status} is not an AMM v4 status`);
  }
  return decoded({
    status: pool.status,
    pnlA: pool.needTakePnlCoin,
    pnlB: pool.needTakePnlPc,
    vaultA: pool.coinVault,
    vaultB: pool.pcVault,
    mintA: pool.coinVaultMint,
    mintB: pool.pcVaultMint,
    lpMint: pool.lpMint,
    openBookMarket: pool.market,
    lpSupply: pool.lpAmount,
    swapFeeNumerator: pool.swapFeeNumerator,
    swapFeeDenominator: pool.swapFeeDenominator,
  });
}
