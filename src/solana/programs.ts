/**
 * Well-known Solana program ids and account addresses, as kit `Address` values.
 *
 * Sources: reference/risk-research.md §2.1 (program table), the mainnet fixtures (mint and
 * owner addresses seen in real account dumps) and the `@solana-program/*` packages. Each value
 * is checked in test/solana/programs.test.ts to be base58 of exactly 32 bytes, and cross-checked
 * against the packages or fixtures where one of them names it too.
 *
 * `address()` validates at module load, so a mistyped constant fails loudly at startup instead of
 * silently never matching (several public repos carry corrupted copies of these ids).
 */
import { type Address, address } from '@solana/kit';

// Core runtime and SPL programs
export const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
export const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111');
export const ADDRESS_LOOKUP_TABLE_PROGRAM = address('AddressLookupTab1e1111111111111111111111111');
export const TOKEN_PROGRAM = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
/** SPL Memo v2 — the one wallets use today. */
export const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** SPL Memo v1 (legacy, still accepted by explorers and verifiers). */
export const MEMO_V1_PROGRAM = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

// Loaders: who owns a program account decides whether it can be upgraded
/** BPF Loader v1 (deprecated): programs are immutable. */
export const BPF_LOADER_1 = address('BPFLoader1111111111111111111111111111111111');
/** BPF Loader 2: programs are immutable. */
export const BPF_LOADER_2 = address('BPFLoader2111111111111111111111111111111111');
/** BPF Upgradeable Loader (v3): program → ProgramData with an optional upgrade authority. */
export const BPF_UPGRADEABLE_LOADER = address('BPFLoaderUpgradeab1e11111111111111111111111');
export const LOADER_V4 = address('LoaderV411111111111111111111111111111111111');

// Metadata
export const TOKEN_METADATA_PROGRAM = address('metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s');

// pump.fun and PumpSwap
export const PUMP_PROGRAM = address('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P');
/** pump `Global` PDA, seeds ["global"]. */
export const PUMP_GLOBAL = address('4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf');
/** pump `mint-authority` PDA: mint authority (then Metaplex update authority) of legacy pump mints. */
export const PUMP_MINT_AUTHORITY = address('TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM');
export const PUMP_EVENT_AUTHORITY = address('Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1');
export const PUMP_FEES_PROGRAM = address('pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ');
export const PUMP_MAYHEM_PROGRAM = address('MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e');
export const PUMPSWAP_PROGRAM = address('pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA');
/** PumpSwap `GlobalConfig` PDA, seeds ["global_config"]. */
export const PUMPSWAP_GLOBAL_CONFIG = address('ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw');

// Multisig / governance: an upgrade or mint authority owned by these is not a single key
export const SQUADS_V4_PROGRAM = address('SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf');
export const SQUADS_V3_PROGRAM = address('SMPLecH534NA9acpos4G6x7uf3LWbCAwZQE9e8ZekMu');
export const SQUADS_V3_PROGRAM_MANAGER = address('SMPLKTQhrgo22hFCVq2VGX1KAktTWjeizkhrdB1eauK');
export const SQUADS_SMART_ACCOUNT_PROGRAM = address('SMRTzfY6DfH5ik3TKiyLFfXexV8uSG3d2UksSCYdunG');
export const SPL_GOVERNANCE_PROGRAM = address('GovER5Lthms3bLBqWub97yVrMmEogzX7xNjdXpPPCVZw');
/** Pyth's own SPL Governance deployment (pyth-network/governance staking/integration-tests addresses.rs). */
export const PYTH_GOVERNANCE_PROGRAM = address('pytGY6tWRgGinSCvRLnSv4fHfBTMoiDGiCsesmHWM6U');
/** The Coral (formerly Serum) multisig, coral-xyz/multisig; Marinade's upgrade authority runs on it. */
export const CORAL_MULTISIG_PROGRAM = address('msigmtwzgXJHj2ext4XJjCDmpbcMuufFb5cHuwg6Xdt');
export const OTTER_VERIFY_PROGRAM = address('verifycLy8mB96wd9wqq3WDXQwM4oU6r42Th37Db9fC');

/** Lighthouse assertion program (wallets such as Phantom append its instructions to protect users). */
export const LIGHTHOUSE_PROGRAM = address('L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95');

// DEXes and aggregators: holder-concentration analysis must recognise their pools and vaults
export const RAYDIUM_AMM_V4_PROGRAM = address('675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8');
/** Raydium AMM v4 authority: owner of the pool vaults that legacy pump tokens migrated to. */
export const RAYDIUM_AMM_V4_AUTHORITY = address('5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1');
export const RAYDIUM_CPMM_AUTHORITY = address('GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL');
export const METEORA_DLMM_PROGRAM = address('LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo');
export const RAYDIUM_CPMM_PROGRAM = address('CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C');
export const RAYDIUM_CLMM_PROGRAM = address('CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK');
export const ORCA_WHIRLPOOL_PROGRAM = address('whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc');
/** Meteora DAMM v1 (dynamic AMM); its reserves sit in Meteora's shared vaults (another program). */
export const METEORA_DAMM_V1_PROGRAM = address('Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB');
/** Meteora DAMM v2 (cp-amm) and its `pool_authority` PDA, owner of every DAMM v2 vault. */
export const METEORA_DAMM_V2_PROGRAM = address('cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG');
export const METEORA_DAMM_V2_POOL_AUTHORITY = address('HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC');
/**
 * Raydium's liquidity-lock program ("Burn & Earn"; id in @raydium-io/raydium-sdk-v2
 * lib/common/programId) and its CPMM lock authority, PDA ["lock_cp_authority_seed"] (seed as in
 * the pinocchio-raydium-locking-program crate): owner of every locked CPMM LP vault.
 */
export const RAYDIUM_LP_LOCK_PROGRAM = address('LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE');
export const RAYDIUM_CP_LOCK_AUTHORITY = address('3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH');
export const JUPITER_V6_PROGRAM = address('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4');
/** Jupiter Lock (jup-ag/jup-lock, programs/locker/src/lib.rs mainnet `declare_id!`): vesting escrows. */
export const JUPITER_LOCK_PROGRAM = address('LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn');

// Mints
/** Wrapped SOL, the native mint: supply 0 and no authorities is normal for it. */
export const WSOL_MINT = address('So11111111111111111111111111111111111111112');
export const USDC_MINT = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
export const USDT_MINT = address('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB');
/** PayPal USD, a Token-2022 mint with a permanent delegate, transfer fee and transfer hook. */
export const PYUSD_MINT = address('2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo');

/** The incinerator: tokens sent to it are burnt for good. */
export const INCINERATOR = address('1nc1nerator11111111111111111111111111111111');

/** Jito tip accounts (a transfer to one is a tip, not a payment to a person). */
export const JITO_TIP_ACCOUNTS: readonly Address[] = [
  address('96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5'),
  address('HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe'),
  address('Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY'),
  address('ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49'),
  address('DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh'),
  address('ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt'),
  address('DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL'),
  address('3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT'),
];

/** Human-readable names for the addresses above, for evidence and summaries. */
export const WELL_KNOWN_ADDRESS_NAMES: ReadonlyMap<Address, string> = new Map<Address, string>([
  [SYSTEM_PROGRAM, 'System Program'],
  [COMPUTE_BUDGET_PROGRAM, 'Compute Budget Program'],
  [ADDRESS_LOOKUP_TABLE_PROGRAM, 'Address Lookup Table Program'],
  [TOKEN_PROGRAM, 'SPL Token Program'],
  [TOKEN_2022_PROGRAM, 'Token-2022 Program'],
  [ASSOCIATED_TOKEN_PROGRAM, 'Associated Token Account Program'],
  [MEMO_PROGRAM, 'Memo Program'],
  [MEMO_V1_PROGRAM, 'Memo Program v1'],
  [BPF_LOADER_1, 'BPF Loader (deprecated)'],
  [BPF_LOADER_2, 'BPF Loader 2'],
  [BPF_UPGRADEABLE_LOADER, 'BPF Upgradeable Loader'],
  [LOADER_V4, 'Loader v4'],
  [TOKEN_METADATA_PROGRAM, 'Metaplex Token Metadata'],
  [PUMP_PROGRAM, 'pump.fun'],
  [PUMP_GLOBAL, 'pump.fun Global'],
  [PUMP_MINT_AUTHORITY, 'pump.fun mint authority'],
  [PUMP_EVENT_AUTHORITY, 'pump.fun event authority'],
  [PUMP_FEES_PROGRAM, 'pump.fun fees'],
  [PUMP_MAYHEM_PROGRAM, 'pump.fun Mayhem'],
  [PUMPSWAP_PROGRAM, 'PumpSwap AMM'],
  [PUMPSWAP_GLOBAL_CONFIG, 'PumpSwap GlobalConfig'],
  [SQUADS_V4_PROGRAM, 'Squads v4'],
  [SQUADS_V3_PROGRAM, 'Squads v3'],
  [SQUADS_V3_PROGRAM_MANAGER, 'Squads v3 program manager'],
  [SQUADS_SMART_ACCOUNT_PROGRAM, 'Squads Smart Account'],
  [SPL_GOVERNANCE_PROGRAM, 'SPL Governance'],
  [PYTH_GOVERNANCE_PROGRAM, 'Pyth SPL Governance'],
  [CORAL_MULTISIG_PROGRAM, 'Coral multisig'],
  [OTTER_VERIFY_PROGRAM, 'OtterSec Verify'],
  [LIGHTHOUSE_PROGRAM, 'Lighthouse'],
  [RAYDIUM_AMM_V4_PROGRAM, 'Raydium AMM v4'],
  [RAYDIUM_AMM_V4_AUTHORITY, 'Raydium AMM v4 authority'],
  [RAYDIUM_CPMM_AUTHORITY, 'Raydium CPMM authority'],
  [METEORA_DLMM_PROGRAM, 'Meteora DLMM'],
  [RAYDIUM_CPMM_PROGRAM, 'Raydium CPMM'],
  [RAYDIUM_CLMM_PROGRAM, 'Raydium CLMM'],
  [ORCA_WHIRLPOOL_PROGRAM, 'Orca Whirlpool'],
  [METEORA_DAMM_V1_PROGRAM, 'Meteora DAMM v1'],
  [METEORA_DAMM_V2_PROGRAM, 'Meteora DAMM v2'],
  [METEORA_DAMM_V2_POOL_AUTHORITY, 'Meteora DAMM v2 pool authority'],
  [RAYDIUM_LP_LOCK_PROGRAM, 'Raydium LP lock'],
  [RAYDIUM_CP_LOCK_AUTHORITY, 'Raydium LP lock (CPMM authority)'],
  [JUPITER_V6_PROGRAM, 'Jupiter v6'],
  [JUPITER_LOCK_PROGRAM, 'Jupiter Lock'],
  [WSOL_MINT, 'Wrapped SOL'],
  [USDC_MINT, 'USDC'],
  [USDT_MINT, 'USDT'],
  [PYUSD_MINT, 'PayPal USD'],
  [INCINERATOR, 'Incinerator'],
  ...JITO_TIP_ACCOUNTS.map((tip) => [tip, 'Jito tip account'] as const),
]);
