/**
 * Meteora DAMM v1 (dynamic AMM, program Eo7WjKq6…) `Pool`, Borsh, from the published program
 * (MeteoraAg/damm-v1-sdk programs/dynamic-amm/src/state.rs): lp_mint, token_a_mint, token_b_mint,
 * a_vault, b_vault, a_vault_lp, b_vault_lp, a_vault_lp_bump u8, enabled bool, two protocol fee
 * accounts, fee_last_updated_at u64, 24 bytes of padding, fees (4×u64), pool_type u8, stake, then
 * `total_locked_lp`. Checked against the real wSOL/mSOL pool HcjZvfeS… (fixture
 * meteora-damm-v1-pool-HcjZvfeS-sol-msol.json). Reserves sit in Meteora's dynamic vaults (see
 * meteora-vault.ts): the pool holds vault LP in a_vault_lp / b_vault_lp.
 *
 * Pool PDAs, as the SDK derives them (common/src/dynamic_amm/pda.rs), with the two mints ordered
 * max then min by their bytes:
 *   - permissionless: [curve type u8 (0 = constant product), max, min, fee bps u64 LE] — the fee
 *     part empty for the default 25 bps; the other constant-product tiers are 100, 400 and 600 bps
 *     (ts-client constants CONSTANT_PRODUCT_ALLOWED_TRADE_FEE_BPS);
 *   - customizable constant product: ["pool", max, min];
 *   - with a config: [max, min, config].
 * The vault-LP accounts are [vault, pool]; the LP mint ["lp_mint", pool].
 */
import { type Address, address } from '@solana/kit';
import { keptAddressEncoder } from '../address-bytes.js';
import { METEORA_DAMM_V1_PROGRAM } from '../programs.js';
import { field, layoutCodec } from './layout.js';
import { maxMinBytes } from './meteora-pair-seeds.js';
import { checkLayout, u8At } from './pool-fields.js';
import { pdaOf } from './program-pda.js';
import { POOL_DISCRIMINATOR } from './pumpswap-pool.js';
import { type DecodeResult, decoded } from './result.js';

const { address: addressCodec, u8, u64 } = field;

/** Up to `total_locked_lp` (8 + 7×32 + 2 + 2×32 + 8 + 24 + 4×8 + 1 + 32 + 8). */
export const DAMM_V1_MIN_SIZE = 403;
export const DAMM_V1_CURVE_TYPE_OFFSET = 874;

export interface DammV1Pool {
  readonly lpMint: Address;
  readonly mintA: Address;
  readonly mintB: Address;
  /** Meteora dynamic vaults (accounts of the vault program), not token accounts. */
  readonly vaultA: Address;
  readonly vaultB: Address;
  /** The pool's token accounts of vault LP. */
  readonly vaultLpA: Address;
  readonly vaultLpB: Address;
  readonly enabled: boolean;
  /** 0 = permissioned, 1 = permissionless. */
  readonly poolType: number;
  /** LP locked in the pool's own lock escrows. */
  readonly totalLockedLp: bigint;
  /** The trade fee, numerator over denominator (`fees`, offsets 330 and 338). */
  readonly tradeFeeNumerator: bigint;
  readonly tradeFeeDenominator: bigint;
  /**
   * `curve_type`'s tag after the bootstrapping, partner and padding blocks (offset 874): 0 constant
   * product, 1 stable swap; null when the account is too short to hold it.
   */
  readonly curveType: number | null;
}

/** The Pool's Borsh fields up to `total_locked_lp` (names as in state.rs) that the scan and the sandbox use. */
export const DAMM_V1_POOL_LAYOUT = layoutCodec(DAMM_V1_MIN_SIZE, POOL_DISCRIMINATOR, {
  lpMint: [8, addressCodec],
  tokenAMint: [40, addressCodec],
  tokenBMint: [72, addressCodec],
  aVault: [104, addressCodec],
  bVault: [136, addressCodec],
  aVaultLp: [168, addressCodec],
  bVaultLp: [200, addressCodec],
  aVaultLpBump: [232, u8],
  enabled: [233, u8],
  tradeFeeNumerator: [330, u64],
  tradeFeeDenominator: [338, u64],
  protocolTradeFeeNumerator: [346, u64],
  protocolTradeFeeDenominator: [354, u64],
  poolType: [362, u8],
  totalLockedLp: [395, u64],
});

export function decodeDammV1Pool(data: Uint8Array): DecodeResult<DammV1Pool> {
  // "account:Pool" is PumpSwap's and DAMM v2's discriminator too: the caller routes by owner first.
  const checked = checkLayout(data, POOL_DISCRIMINATOR, DAMM_V1_MIN_SIZE, 'Meteora DAMM v1 Pool');
  if (!checked.ok) return checked;
  const pool = DAMM_V1_POOL_LAYOUT.decode(data);
  return decoded({
    lpMint: pool.lpMint,
    mintA: pool.tokenAMint,
    mintB: pool.tokenBMint,
    vaultA: pool.aVault,
    vaultB: pool.bVault,
    vaultLpA: pool.aVaultLp,
    vaultLpB: pool.bVaultLp,
    enabled: pool.enabled === 1,
    poolType: pool.poolType,
    totalLockedLp: pool.totalLockedLp,
    tradeFeeNumerator: pool.tradeFeeNumerator,
    tradeFeeDenominator: pool.tradeFeeDenominator,
    curveType: data.length > DAMM_V1_CURVE_TYPE_OFFSET ? u8At(data, DAMM_V1_CURVE_TYPE_OFFSET) : null,
  });
}

/** Constant-product fee tiers besides the default 25 bps, whose PDA has no fee part. */
export const DAMM_V1_FEE_TIERS_BPS = [100, 400, 600] as const;
/**
 * The DAMM v1 configs that Meteora's bonding curve (DBC) graduates tokens into, one per fee option
 * (@meteora-ag/dynamic-bonding-curve-sdk constants.ts DAMM_V1_MIGRATION_FEE_ADDRESS: 25, 30, 100,
 * 200, 400, 600 bps).
 */
export const DAMM_V1_DBC_CONFIGS: readonly Address[] = [
  address('8f848CEy8eY6PhJ3VcemtBDzPPSD4Vq7aJczLZ3o8MmX'),
  address('HBxB8Lf14Yj8pqeJ8C4qDb5ryHL7xwpuykz31BLNYr7S'),
  address('7v5vBdUQHTNeqk1HnduiXcgbvCyVEZ612HLmYkQoAkik'),
  address('EkvP7d5yKxovj884d2DwmBQbrHUWRLGK6bympzrkXGja'),
  address('9EZYAJrcqNWNQzP2trzZesP7XKMHA1jEomHzbRsdX8R2'),
  address('8cdKo87jZU2R12KY1BUjjRPwyjgdNjLGqSGQyrDshhud'),
];

// Kept bytes (address-bytes.ts): the same mints and configs seed pool after pool.
const encoder = keptAddressEncoder;
const pda = pdaOf(METEORA_DAMM_V1_PROGRAM);

/** The permissionless constant-product pool; `feeBps` other than the default 25 adds the tier seed. */
export function findDammV1PermissionlessPool(a: Address, b: Address, feeBps = 25): Promise<Address> {
  const [max, min] = maxMinBytes(a, b);
  const tier = new Uint8Array(feeBps === 25 ? 0 : 8);
  if (feeBps !== 25) new DataView(tier.buffer).setBigUint64(0, BigInt(feeBps), true);
  return pda([Uint8Array.of(0), max, min, tier]);
}

export function findDammV1CustomizablePool(a: Address, b: Address): Promise<Address> {
  const [max, min] = maxMinBytes(a, b);
  return pda(['pool', max, min]);
}

export function findDammV1ConfigPool(a: Address, b: Address, config: Address): Promise<Address> {
  const [max, min] = maxMinBytes(a, b);
  return pda([max, min, encoder.encode(config)]);
}

/** A permissionless pool's LP mint (a few early pools have another: they are read from the pool). */
export const findDammV1LpMint = (pool: Address): Promise<Address> => pda(['lp_mint', encoder.encode(pool)]);

export const findDammV1VaultLp = (vault: Address, pool: Address): Promise<Address> =>
  pda([encoder.encode(vault), encoder.encode(pool)]);
