/**
 * Meteora pools for the liquidity scenarios, at the addresses Meteora's SDKs derive and in the
 * real layouts, owned by the real programs (which the sandbox does not run):
 *   - a DAMM v2 customizable pool ["cpool", max, min] of the mint against wSOL, its vaults
 *     ["token_vault", mint, pool] owned by the program's shared pool authority;
 *   - a DAMM v1 permissionless pool [0, max, min] against wSOL, its reserves as LP of Meteora
 *     dynamic vaults: the mint's own vault and the real wSOL vault's address, which other pools
 *     share (so the pool's SOL is its share of the vault, not the vault's balance), its LP in the
 *     creator's wallet.
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress, type KeyPairSigner } from '@solana/kit';
import {
  findDammV1LpMint,
  findDammV1PermissionlessPool,
  findDammV1VaultLp,
} from '../../solana/decoders/meteora-damm-v1.js';
import {
  DAMM_V2_POOL_SIZE,
  findDammV2CustomizablePool,
  findDammV2TokenVault,
} from '../../solana/decoders/meteora-damm-v2.js';
import {
  findDynamicVaultAddress,
  findDynamicVaultLpMint,
  findDynamicVaultTokenAccount,
  METEORA_VAULT_BASE,
  METEORA_VAULT_PROGRAM,
} from '../../solana/decoders/meteora-vault.js';
import {
  METEORA_DAMM_V1_PROGRAM,
  METEORA_DAMM_V2_POOL_AUTHORITY,
  METEORA_DAMM_V2_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../solana/programs.js';
import { isqrt } from './builders/isqrt.js';
import { encodeLockEscrow } from './builders/locker-layouts.js';
import {
  DAMM_V1_POOL_ACCOUNT_SIZE,
  encodeDammV1Pool,
  encodeDammV2Pool,
  encodeDynamicVault,
  VAULT_ACCOUNT_SIZE,
} from './builders/meteora-layouts.js';
import { setMintAccount, setTokenAccount } from './builders/pool-accounts.js';
import { associatedTokenAccount } from './builders/token.js';
import { LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { MarketExpect } from './manifest.js';

interface SeededPool {
  /** The token account the token's side is minted into, and its owner. */
  vault: Address;
  vaultOwner: Address;
  market: MarketExpect;
}

/** √(quote / base) in Q64.64: the price of A (the token) in B (wSOL), raw units. */
const sqrtPriceX64 = (base: bigint, quote: bigint) => isqrt((quote << 128n) / base);

/** A DAMM v2 customizable pool of `mint` against 100 SOL. */
export function dammV2Pool(poolTokens: bigint) {
  return async (context: ScenarioContext, mint: Address, creator: KeyPairSigner): Promise<SeededPool> => {
    const quote = 100n * LAMPORTS_PER_SOL;
    const pool = await findDammV2CustomizablePool(mint, WSOL_MINT);
    const baseVault = await findDammV2TokenVault(mint, pool);
    const quoteVault = await findDammV2TokenVault(WSOL_MINT, pool);
    const price = sqrtPriceX64(poolTokens, quote);
    context.chain.setAccount({
      address: pool,
      lamports: context.chain.minimumBalanceForRentExemption(DAMM_V2_POOL_SIZE),
      data: encodeDammV2Pool({
        mintA: mint,
        mintB: WSOL_MINT,
        vaultA: baseVault,
        vaultB: quoteVault,
        liquidity: isqrt(poolTokens * quote) << 64n,
        sqrtPriceX64: price,
        creator: creator.address,
        amountA: poolTokens,
        amountB: quote,
      }),
      owner: METEORA_DAMM_V2_PROGRAM,
    });
    setTokenAccount(context, baseVault, mint, METEORA_DAMM_V2_POOL_AUTHORITY, 0n);
    setTokenAccount(context, quoteVault, WSOL_MINT, METEORA_DAMM_V2_POOL_AUTHORITY, quote);
    return {
      vault: baseVault,
      vaultOwner: METEORA_DAMM_V2_POOL_AUTHORITY,
      market: {
        dex: 'meteora-damm-v2',
        pool,
        baseVault,
        quoteVault,
        quoteMint: WSOL_MINT,
        quoteReserve: quote.toString(),
        baseReserve: poolTokens.toString(),
        sqrtPriceX64: price.toString(),
      },
    };
  };
}

interface VaultSeed {
  mint: Address;
  /** What the vault holds in all, its LP supply, and the pool's LP of it. */
  total: bigint;
  lpSupply: bigint;
  poolLp: bigint;
}

/** A dynamic vault, its token account (holding `total`, except the token's: minted into later) and LP mint. */
async function seedDynamicVault(context: ScenarioContext, pool: Address, v: VaultSeed) {
  const vault = await findDynamicVaultAddress(v.mint);
  const tokenVault = await findDynamicVaultTokenAccount(vault);
  const lpMint = await findDynamicVaultLpMint(vault);
  const poolLp = await findDammV1VaultLp(vault, pool);
  context.chain.setAccount({
    address: vault,
    lamports: context.chain.minimumBalanceForRentExemption(VAULT_ACCOUNT_SIZE),
    data: encodeDynamicVault({
      totalAmount: v.total,
      tokenVault,
      tokenMint: v.mint,
      lpMint,
      base: METEORA_VAULT_BASE,
    }),
    owner: METEORA_VAULT_PROGRAM,
  });
  setTokenAccount(context, tokenVault, v.mint, vault, v.mint === WSOL_MINT ? v.total : 0n);
  setMintAccount(context, lpMint, vault, v.lpSupply, 9);
  // The pool's vault-LP account is its own authority, as on mainnet (HWnWnLvB…).
  setTokenAccount(context, poolLp, lpMint, poolLp, v.poolLp);
  return { vault, tokenVault, poolLp };
}

/**
 * A DAMM v1 pool of `mint` against wSOL holding 50 SOL: 40 of the 800 LP of a wSOL vault holding
 * 1,000 SOL. Every LP token of the pool sits in the creator's wallet.
 */
/** Every LP token into a DAMM v1 LockEscrow of the creator: PDA ["lock_escrow", pool, owner], its LP in the escrow's ATA. */
async function lockEscrowLp(
  context: ScenarioContext,
  pool: Address,
  lpMint: Address,
  owner: Address,
  amount: bigint,
) {
  const [escrow, bump] = await getProgramDerivedAddress({
    programAddress: METEORA_DAMM_V1_PROGRAM,
    seeds: ['lock_escrow', getAddressEncoder().encode(pool), getAddressEncoder().encode(owner)],
  });
  const escrowVault = await associatedTokenAccount(escrow, lpMint, TOKEN_PROGRAM);
  const data = encodeLockEscrow({ pool, owner, escrowVault, bump, totalLockedAmount: amount });
  context.chain.setAccount({
    address: escrow,
    lamports: context.chain.minimumBalanceForRentExemption(BigInt(data.length)),
    data,
    owner: METEORA_DAMM_V1_PROGRAM,
  });
  setTokenAccount(context, escrowVault, lpMint, escrow, amount);
  return { owner: escrow, tokenAccount: escrowVault, amount: amount.toString() };
}

export function dammV1Pool(poolTokens: bigint, lp: 'creator' | 'lock-escrow' = 'creator') {
  return async (context: ScenarioContext, mint: Address, creator: KeyPairSigner): Promise<SeededPool> => {
    const sol = LAMPORTS_PER_SOL;
    const pool = await findDammV1PermissionlessPool(mint, WSOL_MINT);
    const base = await seedDynamicVault(context, pool, {
      mint,
      total: poolTokens,
      lpSupply: poolTokens,
      poolLp: poolTokens,
    });
    const quote = await seedDynamicVault(context, pool, {
      mint: WSOL_MINT,
      total: 1_000n * sol,
      lpSupply: 800n * sol,
      poolLp: 40n * sol,
    });
    const lpMint = await findDammV1LpMint(pool);
    const lpSupply = isqrt(poolTokens * 50n * sol);
    context.chain.setAccount({
      address: pool,
      lamports: context.chain.minimumBalanceForRentExemption(DAMM_V1_POOL_ACCOUNT_SIZE),
      data: encodeDammV1Pool({
        lpMint,
        mintA: mint,
        mintB: WSOL_MINT,
        vaultA: base.vault,
        vaultB: quote.vault,
        vaultLpA: base.poolLp,
        vaultLpB: quote.poolLp,
        vaultLpBumpA: 255,
      }),
      owner: METEORA_DAMM_V1_PROGRAM,
    });
    setMintAccount(context, lpMint, pool, lpSupply, 9);
    const lpHolder =
      lp === 'lock-escrow'
        ? await lockEscrowLp(context, pool, lpMint, creator.address, lpSupply)
        : await creatorLp(context, lpMint, creator.address, lpSupply);
    return {
      vault: base.tokenVault,
      vaultOwner: base.vault,
      market: {
        dex: 'meteora-damm-v1',
        pool,
        baseVault: base.vault,
        quoteVault: quote.vault,
        quoteMint: WSOL_MINT,
        quoteReserve: (50n * sol).toString(),
        baseReserve: poolTokens.toString(),
        lpMint,
        lpMintSupply: lpSupply.toString(),
        lpHolders: [lpHolder],
      },
    };
  };
}

async function creatorLp(context: ScenarioContext, lpMint: Address, owner: Address, amount: bigint) {
  const tokenAccount = await associatedTokenAccount(owner, lpMint, TOKEN_PROGRAM);
  setTokenAccount(context, tokenAccount, lpMint, owner, amount);
  return { owner, tokenAccount, amount: amount.toString() };
}
