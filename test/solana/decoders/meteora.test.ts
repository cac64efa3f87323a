/**
 * Meteora DAMM v1 pool, dynamic vault and DAMM v2 pool decoders and PDAs on real mainnet bytes
 * (fixtures/mainnet/PROVENANCE.md): the fields read are the ones the accounts beside them confirm
 * (vaults, LP mints, vault-LP accounts), and the derivations give the real addresses.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { address } from '@solana/kit';
import {
  DAMM_V1_DBC_CONFIGS,
  decodeDammV1Pool,
  findDammV1ConfigPool,
  findDammV1CustomizablePool,
  findDammV1PermissionlessPool,
  findDammV1VaultLp,
} from '../../../src/solana/decoders/meteora-damm-v1.js';
import {
  DAMM_V2_DBC_CONFIGS,
  decodeDammV2Pool,
  findDammV2ConfigPool,
  findDammV2CustomizablePool,
  findDammV2TokenVault,
} from '../../../src/solana/decoders/meteora-damm-v2.js';
import {
  decodeDynamicVault,
  findDynamicVaultAddress,
  findDynamicVaultLpMint,
  findDynamicVaultTokenAccount,
  unlockedAmount,
  VAULT_DISCRIMINATOR,
  vaultShareAmount,
} from '../../../src/solana/decoders/meteora-vault.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import { decodeTokenAccount } from '../../../src/solana/decoders/token-account.js';
import { USDC_MINT, WSOL_MINT } from '../../../src/solana/programs.js';
import { expectDecoded, loadAccount } from '../fixtures.js';

const MSOL = address('mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So');
const pool = loadAccount('meteora-damm-v1-pool-HcjZvfeS-sol-msol.json');
const solVault = loadAccount('meteora-vault-FERjPVNE-wsol.json');
const msolVault = loadAccount('meteora-vault-8p1VKP45-msol.json');
const solVaultLpMint = loadAccount('meteora-vault-lp-mint-FZN7QZ8Z-wsol.json');
const poolSolLp = loadAccount('meteora-damm-v1-vault-lp-HWnWnLvB-wsol.json');

describe('Meteora DAMM v1 Pool (real wSOL/mSOL pool HcjZvfeS…)', () => {
  const p = expectDecoded(decodeDammV1Pool(pool.data));
  it('decodes the LP mint, mints, dynamic vaults and vault-LP accounts the accounts beside it confirm', async () => {
    assert.equal(p.lpMint, loadAccount('meteora-damm-v1-lp-mint-B2uEs9zj.json').address);
    assert.equal(p.mintA, WSOL_MINT);
    assert.equal(p.mintB, MSOL);
    assert.equal(p.vaultA, solVault.address);
    assert.equal(p.vaultB, msolVault.address);
    assert.equal(p.vaultLpA, poolSolLp.address);
    assert.equal(p.vaultLpB, loadAccount('meteora-damm-v1-vault-lp-GGG4DxkY-msol.json').address);
    assert.equal(p.enabled, true);
    assert.equal(p.poolType, 0, 'a permissioned pool (Meteora made it before permissionless pools)');
    assert.equal(p.totalLockedLp, 13_501_271n);
    // The vault-LP accounts are the PDAs [vault, pool], and hold the vaults' LP.
    assert.equal(await findDammV1VaultLp(p.vaultA, pool.address), p.vaultLpA);
    assert.equal(await findDammV1VaultLp(p.vaultB, pool.address), p.vaultLpB);
    const lp = expectDecoded(decodeTokenAccount(poolSolLp.data, poolSolLp.owner));
    assert.equal(lp.mint, solVaultLpMint.address);
    assert.equal(lp.owner, poolSolLp.address, 'the PDA token account owns itself: no key can move that LP');
  });
  it('refuses a DAMM v2 pool and a dynamic vault', () => {
    assert.equal(decodeDammV1Pool(solVault.data).ok, false);
    // DAMM v2 shares the "Pool" discriminator and is longer: the scan routes by owner program first.
    assert.equal(decodeDammV1Pool(pool.data.subarray(0, 402)).ok, false);
  });
  it('pool PDAs follow the seeds of the SDK: either order of mints, fee tiers and configs differ', async () => {
    const a = await findDammV1PermissionlessPool(WSOL_MINT, MSOL);
    assert.equal(await findDammV1PermissionlessPool(MSOL, WSOL_MINT), a);
    assert.equal(
      await findDammV1PermissionlessPool(MSOL, WSOL_MINT, 25),
      a,
      '25 bps is the default: no fee seed',
    );
    assert.notEqual(await findDammV1PermissionlessPool(MSOL, WSOL_MINT, 100), a);
    assert.equal(
      await findDammV1CustomizablePool(USDC_MINT, MSOL),
      await findDammV1CustomizablePool(MSOL, USDC_MINT),
    );
    const config = DAMM_V1_DBC_CONFIGS[0]!;
    assert.equal(
      await findDammV1ConfigPool(WSOL_MINT, MSOL, config),
      await findDammV1ConfigPool(MSOL, WSOL_MINT, config),
    );
    // HcjZvfeS… is a permissioned pool: at none of them.
    assert.notEqual(a, pool.address);
  });
});

describe('Meteora dynamic vault (real wSOL and mSOL vaults)', () => {
  const sol = expectDecoded(decodeDynamicVault(solVault.data));
  it('decodes total amount, token account, mint and LP mint', () => {
    assert.deepEqual(VAULT_DISCRIMINATOR, [
      ...createHash('sha256').update('account:Vault').digest().subarray(0, 8),
    ]);
    assert.equal(sol.enabled, true);
    assert.equal(sol.totalAmount, 154_402_082_133_447n);
    assert.equal(sol.tokenVault, 'HZeLxbZ9uHtSpwZC3LBr4Nubd14iHwz7bRSghRZf5VCG');
    assert.equal(sol.tokenMint, WSOL_MINT);
    assert.equal(sol.lpMint, solVaultLpMint.address);
    assert.equal(sol.lockedProfit, 2_783_432_316n);
    const msol = expectDecoded(decodeDynamicVault(msolVault.data));
    assert.equal(msol.tokenMint, MSOL);
    assert.equal(msol.totalAmount, 82_323_752_629_142n);
  });
  it('is the PDA ["vault", mint, base]; its token account ["token_vault", vault]; its LP mint the listed one', async () => {
    assert.equal(await findDynamicVaultAddress(WSOL_MINT), solVault.address);
    assert.equal(await findDynamicVaultAddress(MSOL), msolVault.address);
    assert.equal(await findDynamicVaultTokenAccount(solVault.address), sol.tokenVault);
    assert.equal(await findDynamicVaultLpMint(solVault.address), sol.lpMint);
  });
  // The wSOL vault's tracker: 2,783,432,316 lamports of profit reported at 1719233007, released at
  // 46,296,296 / 10¹² per second (all of it 21,600 s, six hours, later).
  const REPORTED = 1_719_233_007;
  it("the pool's SOL reserve is its share of the vault's unlocked amount: (total − locked profit) × pool vault-LP / vault LP supply", () => {
    const supply = expectDecoded(decodeMint(solVaultLpMint.data, solVaultLpMint.owner)).supply;
    const poolLp = expectDecoded(decodeTokenAccount(poolSolLp.data, poolSolLp.owner)).amount;
    assert.equal(supply, 145_998_019_653_473n);
    assert.equal(poolLp, 41_924_615_981_385n);
    const later = REPORTED + 21_601;
    assert.equal(vaultShareAmount(sol, supply, poolLp, later), (154_402_082_133_447n * poolLp) / supply);
    assert.equal(vaultShareAmount(sol, supply, poolLp, later) / 10n ** 9n, 44_337n, 'about 44,337 SOL');
    assert.equal(vaultShareAmount(sol, 0n, 0n, later), 0n);
  });
  it('the profit just reported is locked, and unlocks linearly (the vault SDK calculateWithdrawableAmount)', () => {
    assert.deepEqual(
      [sol.lockedProfit, sol.lastReport, sol.lockedProfitDegradation],
      [2_783_432_316n, BigInt(REPORTED), 46_296_296n],
    );
    assert.equal(unlockedAmount(sol, REPORTED), 154_402_082_133_447n - 2_783_432_316n);
    const half = 10_800; // 0.499999997 of the way: just over half is still locked
    const locked = (2_783_432_316n * (10n ** 12n - 10_800n * 46_296_296n)) / 10n ** 12n;
    assert.equal(unlockedAmount(sol, REPORTED + half), 154_402_082_133_447n - locked);
    assert.equal(unlockedAmount(sol, REPORTED + 21_601), 154_402_082_133_447n);
    assert.equal(unlockedAmount(sol, REPORTED - 60), 154_402_082_133_447n - 2_783_432_316n, 'a clock behind');
  });
  it('refuses a DAMM v1 pool and a short account', () => {
    assert.equal(decodeDynamicVault(pool.data).ok, false);
    assert.equal(decodeDynamicVault(solVault.data.subarray(0, 1226)).ok, false);
  });
});

describe('Meteora DAMM v2 pool PDAs (real pool 6CXXieC3…)', () => {
  const dump = loadAccount('meteora-damm-v2-pool-6CXXieC3.json');
  const p = expectDecoded(decodeDammV2Pool(dump.data));
  it("is the pool of the DBC graduation config 2c4cYd4r… (200 bps); its vaults are ['token_vault', mint, pool]", async () => {
    const found = await Promise.all(
      DAMM_V2_DBC_CONFIGS.map((c) => findDammV2ConfigPool(c, WSOL_MINT, p.mintA)),
    );
    assert.equal(found.indexOf(dump.address), 3);
    assert.equal(await findDammV2TokenVault(p.mintA, dump.address), p.vaultA);
    assert.equal(await findDammV2TokenVault(p.mintB, dump.address), p.vaultB);
  });
  it("decodes the protocol fees still in its vaults (not the liquidity providers')", () => {
    assert.equal(p.protocolFeeA, 0n);
    assert.equal(p.protocolFeeB, 712_006_203_593n);
  });
  it("decodes the partner's fees after the protocol's (u64 at 408, 416): none in this pool", () => {
    assert.deepEqual([p.partnerFeeA, p.partnerFeeB], [0n, 0n]);
    const data = new Uint8Array(dump.data);
    new DataView(data.buffer).setBigUint64(416, 5_000_000n, true);
    const withFee = expectDecoded(decodeDammV2Pool(data));
    assert.deepEqual([withFee.partnerFeeB, withFee.protocolFeeB], [5_000_000n, 712_006_203_593n]);
  });
  it('the customizable pool ["cpool", max, min] is the same for either order of mints', async () => {
    const x = await findDammV2CustomizablePool(p.mintA, WSOL_MINT);
    assert.equal(await findDammV2CustomizablePool(WSOL_MINT, p.mintA), x);
    assert.notEqual(x, dump.address, 'a config pool is not the customizable one');
  });
});
