/**
 * Meteora dynamic vault (program 24Uqj9JC…) `Vault`, Borsh, from the published program
 * (MeteoraAg/damm-v1-sdk programs/dynamic-vault/src/state.rs): enabled u8, bumps 2×u8,
 * total_amount u64, token_vault, fee_vault, token_mint, lp_mint, 30 strategies, base, admin,
 * operator, locked-profit tracker. Checked against the real wSOL and mSOL vaults (fixtures
 * meteora-vault-*.json). DAMM v1 pools keep their reserves here as vault LP: a pool's share of a
 * vault is its vault-LP balance over the vault LP mint's supply.
 *
 * One vault per mint: PDA ["vault", mint, base] with Meteora's fixed base key; its token account
 * is ["token_vault", vault] and, for vaults made after the first ones, its LP mint ["lp_mint",
 * vault] (the SDK lists the older vaults whose LP mint is not that PDA; wSOL's and USDC's are).
 */
import { type Address, address } from '@solana/kit';
import { keptAddressEncoder } from '../address-bytes.js';
import { field, layoutCodec } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { pdaOf } from './program-pda.js';
import { type DecodeResult, decoded } from './result.js';

const { address: addressCodec, u64 } = field;

export const METEORA_VAULT_PROGRAM = address('24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi');
/** The base key every vault is derived with (`get_base_address` in the program). */
export const METEORA_VAULT_BASE = address('HWzXGcGHy4tcpYfaRDCyLNzXqBTv3E6BttpCH2vJxArv');
/** sha256("account:Vault")[0..8]. */
export const VAULT_DISCRIMINATOR: readonly number[] = [211, 8, 232, 43, 2, 152, 117, 119];
/** Up to the end of the locked-profit tracker: 8 + 1 + 2 + 8 + 4×32 + 30×32 + 3×32 + 3×8. */
const VAULT_MIN_SIZE = 1227;

/**
 * Vault → LP mint for the quote vaults whose LP mint is not the ["lp_mint", vault] PDA (the SDK's
 * VAULT_WITH_NON_PDA_BASED_LP_MINT; wSOL's checked against the real vault FERjPVNE…).
 */
const NON_PDA_VAULT_LP_MINTS: ReadonlyMap<Address, Address> = new Map<Address, Address>([
  [
    address('FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT'),
    address('FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j'),
  ],
  [
    address('3ESUFCnRNgZ7Mn2mPPUMmXYaKU8jpnV9VtA17M7t2mHQ'),
    address('3RpEekjLE5cdcG15YcXJUpxSepemvq2FpmMcgo342BwC'),
  ],
]);

export interface DynamicVault {
  readonly enabled: boolean;
  /** Everything the vault holds: its token account plus what it lent out to strategies. */
  readonly totalAmount: bigint;
  readonly tokenVault: Address;
  readonly tokenMint: Address;
  readonly lpMint: Address;
  /**
   * The locked-profit tracker: profit reported at `lastReport` (unix seconds) is part of
   * total_amount but released linearly, `lockedProfitDegradation` / 10¹² of it per second.
   */
  readonly lockedProfit: bigint;
  readonly lastReport: bigint;
  readonly lockedProfitDegradation: bigint;
}

/** The Vault's fields the scan and the sandbox use (names as in the vault program), at their offsets. */
export const VAULT_LAYOUT = layoutCodec(VAULT_MIN_SIZE, VAULT_DISCRIMINATOR, {
  enabled: [8, field.u8],
  totalAmount: [11, u64],
  tokenVault: [19, addressCodec],
  tokenMint: [83, addressCodec],
  lpMint: [115, addressCodec],
  base: [1107, addressCodec],
  lockedProfit: [1203, u64],
  lastReport: [1211, u64],
  lockedProfitDegradation: [1219, u64],
});

export function decodeDynamicVault(data: Uint8Array): DecodeResult<DynamicVault> {
  const checked = checkLayout(data, VAULT_DISCRIMINATOR, VAULT_MIN_SIZE, 'Meteora dynamic Vault');
  if (!checked.ok) return checked;
  const vault = VAULT_LAYOUT.decode(data);
  return decoded({
    enabled: vault.enabled === 1,
    totalAmount: vault.totalAmount,
    tokenVault: vault.tokenVault,
    tokenMint: vault.tokenMint,
    lpMint: vault.lpMint,
    lockedProfit: vault.lockedProfit,
    lastReport: vault.lastReport,
    lockedProfitDegradation: vault.lockedProfitDegradation,
  });
}

// Kept bytes (address-bytes.ts): the same mints and configs seed pool after pool.
const encoder = keptAddressEncoder;
const pda = pdaOf(METEORA_VAULT_PROGRAM);

export const findDynamicVaultAddress = (mint: Address): Promise<Address> =>
  pda(['vault', encoder.encode(mint), encoder.encode(METEORA_VAULT_BASE)]);

export const findDynamicVaultTokenAccount = (vault: Address): Promise<Address> =>
  pda(['token_vault', encoder.encode(vault)]);

/** The vault's LP mint: a listed older one, else the ["lp_mint", vault] PDA. */
export async function findDynamicVaultLpMint(vault: Address): Promise<Address> {
  return NON_PDA_VAULT_LP_MINTS.get(vault) ?? pda(['lp_mint', encoder.encode(vault)]);
}

const LOCKED_PROFIT_DEGRADATION_DENOMINATOR = 1_000_000_000_000n;

/**
 * What the vault holds that withdrawals get at `nowSeconds`: total_amount less the profit still
 * locked (MeteoraAg vault SDK calculateWithdrawableAmount / the program's calculate_locked_profit).
 * A clock behind the last report counts the whole reported profit as locked.
 */
export function unlockedAmount(vault: DynamicVault, nowSeconds: number): bigint {
  const elapsed = BigInt(Math.floor(nowSeconds)) - vault.lastReport;
  const ratio = (elapsed > 0n ? elapsed : 0n) * vault.lockedProfitDegradation;
  const locked =
    ratio > LOCKED_PROFIT_DEGRADATION_DENOMINATOR
      ? 0n
      : (vault.lockedProfit * (LOCKED_PROFIT_DEGRADATION_DENOMINATOR - ratio)) /
        LOCKED_PROFIT_DEGRADATION_DENOMINATOR;
  return vault.totalAmount > locked ? vault.totalAmount - locked : 0n;
}

/**
 * What `poolLp` vault-LP units are worth in the vault's token at `nowSeconds`, as Meteora's SDK
 * values them (getAmountByShare): the unlocked amount × poolLp / LP supply.
 */
export function vaultShareAmount(
  vault: DynamicVault,
  lpSupply: bigint,
  poolLp: bigint,
  nowSeconds: number,
): bigint {
  return lpSupply === 0n ? 0n : (unlockedAmount(vault, nowSeconds) * poolLp) / lpSupply;
}
