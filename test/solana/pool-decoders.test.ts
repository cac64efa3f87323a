/**
 * DEX pool decoders on real mainnet bytes (fixtures/mainnet/PROVENANCE.md): each decodes the pool's
 * mints, vaults and LP or liquidity fields to the values the source states, refuses other kinds of
 * account, and the PDAs that make pools derivable equal the real addresses.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { decodeDammV1Pool } from '../../src/solana/decoders/meteora-damm-v1.js';
import { decodeDammV2Pool } from '../../src/solana/decoders/meteora-damm-v2.js';
import { decodeLbPair, findLbPairReserve, lbPairPrice } from '../../src/solana/decoders/meteora-dlmm.js';
import { decodeWhirlpool, WHIRLPOOL_DISCRIMINATOR } from '../../src/solana/decoders/orca-whirlpool.js';
import { decodeRaydiumAmmV4 } from '../../src/solana/decoders/raydium-amm-v4.js';
import { decodeRaydiumClmmPool } from '../../src/solana/decoders/raydium-clmm.js';
import {
  CPMM_POOL_DISCRIMINATOR,
  decodeRaydiumCpmmPool,
  findCpmmConfigAddress,
  findCpmmLpMintAddress,
  findCpmmPoolAddress,
  findCpmmVaultAddress,
} from '../../src/solana/decoders/raydium-cpmm.js';
import {
  METEORA_DAMM_V2_POOL_AUTHORITY,
  METEORA_DAMM_V2_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  RAYDIUM_CP_LOCK_AUTHORITY,
  RAYDIUM_LP_LOCK_PROGRAM,
  USDC_MINT,
  WSOL_MINT,
} from '../../src/solana/programs.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const discriminatorOf = (name: string) => [
  ...createHash('sha256').update(`account:${name}`).digest().subarray(0, 8),
];

describe('Raydium AMM v4 AmmInfo (real SOL/USDC pool 58oQChx4…)', () => {
  const dump = loadAccount('raydium-amm-v4-58oQChx4-sol-usdc.json');
  it('decodes the vaults, mints, LP mint and outstanding LP', () => {
    const pool = expectDecoded(decodeRaydiumAmmV4(dump.data));
    assert.equal(pool.status, 6n);
    assert.equal(pool.mintA, WSOL_MINT);
    assert.equal(pool.mintB, USDC_MINT);
    assert.equal(pool.vaultA, 'DQyrAcCrDXQ7NeoqGgDCZwBvWDcYmFCjSb9JtteuvPpz');
    assert.equal(pool.vaultB, 'HLmqeL62xR1QoZ1HKKbXRrdN1p3phKpxRMb2VVopvBBz');
    assert.equal(pool.lpMint, '8HoQnePLqPj4M7PUDzfw8e3Ymdwgc7NLGnaTUapubyvu');
    assert.equal(pool.lpSupply, 102_528_382_854_742n);
    assert.deepEqual([pool.pnlA, pool.pnlB], [183_502_858n, 21_928_100n]);
  });
  it('refuses a short account and a status the program never writes', () => {
    assert.equal(decodeRaydiumAmmV4(dump.data.subarray(0, 751)).ok, false);
    const bad = new Uint8Array(dump.data);
    bad[0] = 9;
    assert.equal(decodeRaydiumAmmV4(bad).ok, false);
  });
});

describe('Raydium CPMM PoolState (real pool FmNz8z2o…) and its PDAs', () => {
  const dump = loadAccount('raydium-cpmm-pool-FmNz8z2o-wsol-clns.json');
  const config = loadAccount('raydium-cpmm-amm-config-2fGXL8uh.json');
  const pool = expectDecoded(decodeRaydiumCpmmPool(dump.data));
  it('decodes mints, vaults, LP mint and LP supply', () => {
    assert.deepEqual(CPMM_POOL_DISCRIMINATOR, discriminatorOf('PoolState'));
    assert.equal(pool.ammConfig, config.address);
    assert.equal(pool.mintA, WSOL_MINT);
    assert.equal(pool.mintB, 'CLnsvL118rFABjjpGkR5jY8JeUib3SjEf4Eyu7ZVhbKu');
    assert.equal(pool.vaultA, '7kr6P33VCitwmwpShpUwXKpjnnXQkVyNZNqLktYKRKm9');
    assert.equal(pool.vaultB, '9rtx1zk5rSXFjg9oDKhzTnJWeVhuA8CJFvvgdKppsz8a');
    assert.equal(pool.lpMint, 'AXga7cEpYZZKsyV7FMMwfmb6y7Lxy9DGAwMbwf622mSp');
    assert.equal(pool.lpSupply, 100n, 'only the 100 units CPMM locks at creation remain');
    assert.equal(pool.swapEnabled, true);
  });
  it('the pool, its vaults and LP mint are the PDAs derived from config index 2 and the two mints', async () => {
    assert.equal(config.data[10], 2, 'AmmConfig.index = 2');
    assert.equal(await findCpmmConfigAddress(2), config.address);
    // Either order of mints gives the same pool: CPMM sorts them.
    assert.equal(await findCpmmPoolAddress(config.address, pool.mintB, WSOL_MINT), dump.address);
    assert.equal(await findCpmmVaultAddress(dump.address, WSOL_MINT), pool.vaultA);
    assert.equal(await findCpmmVaultAddress(dump.address, pool.mintB), pool.vaultB);
    assert.equal(await findCpmmLpMintAddress(dump.address), pool.lpMint);
  });
});

describe('Raydium CLMM PoolState (real pool AcPS8Srz…)', () => {
  const dump = loadAccount('raydium-clmm-pool-AcPS8Srz.json');
  it('decodes mints and vaults; the vault is the pool-owned PDA ["pool_vault", pool, mint]', async () => {
    const pool = expectDecoded(decodeRaydiumClmmPool(dump.data));
    assert.equal(pool.mintA, WSOL_MINT);
    assert.equal(pool.mintB, '4kzLMxfMZVf6UztzjMcAmyLfBYgFcr9FfpwusrqgEjiH');
    assert.equal(pool.vaultA, '6G5MVC3hqo6oYyucP3F7HK5smyWye84AF8fLExDDMUNL');
    assert.equal(pool.vaultB, 'E1NAfa5JAcNdKEzFiU4SkzX5uVi34pNhLdCJCmjA7nN');
    const encoder = getAddressEncoder();
    const [vault] = await getProgramDerivedAddress({
      programAddress: RAYDIUM_CLMM_PROGRAM,
      seeds: ['pool_vault', encoder.encode(dump.address), encoder.encode(WSOL_MINT)],
    });
    assert.equal(vault, pool.vaultA);
    assert.ok(pool.sqrtPriceX64 > 0n);
  });
  it('a CPMM pool (same discriminator, other length) is refused', () => {
    const cpmm = loadAccount('raydium-cpmm-pool-FmNz8z2o-wsol-clns.json');
    assert.equal(decodeRaydiumClmmPool(cpmm.data).ok, false);
  });
});

describe('Orca Whirlpool (real pool CGGNcohZ…)', () => {
  const dump = loadAccount('orca-whirlpool-CGGNcohZ.json');
  it('decodes the fields the source states', () => {
    assert.deepEqual(WHIRLPOOL_DISCRIMINATOR, discriminatorOf('Whirlpool'));
    const pool = expectDecoded(decodeWhirlpool(dump.data));
    assert.equal(pool.config, '2LecshUwdy9xi7meFgHtFJQNSKk4KdTrcpvaB56dP2NQ');
    assert.equal(pool.mintA, WSOL_MINT);
    assert.equal(pool.vaultA, '6cS7s6TZuQofs1TPYSpZ51qGPQKnrxk6xWhW131MysXh');
    assert.equal(pool.mintB, 'DzkKGBw4njGApBJ4Bd2csCpm4rsdgEmkgivR7XZvENPv');
    assert.equal(pool.vaultB, '25tSGzR5NcRpuoWKzWFTWfMaB1ijiaHP6HkqjxZNH72m');
    assert.equal(pool.liquidity, 141_421_356n);
    assert.equal(pool.sqrtPriceX64, 1_304_381_782_533_278_221_200_000n);
    assert.equal(pool.tickCurrent, 223_338);
    assert.equal(pool.feeRate, 10_000);
  });
  it('refuses a DLMM pair', () => {
    assert.equal(decodeWhirlpool(loadAccount('meteora-dlmm-lbpair-5rCf1DM8.json').data).ok, false);
  });
});

describe('Meteora DLMM LbPair (real SOL/USDC and cbBTC/USDC pairs)', () => {
  it('decodes mints and reserves; reserves are the PDAs [pair, mint]', async () => {
    const dump = loadAccount('meteora-dlmm-lbpair-5rCf1DM8.json');
    const pair = expectDecoded(decodeLbPair(dump.data));
    assert.equal(pair.mintA, WSOL_MINT);
    assert.equal(pair.mintB, USDC_MINT);
    assert.equal(await findLbPairReserve(dump.address, WSOL_MINT), pair.vaultA);
    assert.equal(await findLbPairReserve(dump.address, USDC_MINT), pair.vaultB);
    // A SOL price in USDC between 20 and 2000, from the active bin (9 and 6 decimals).
    const usdcPerSol = lbPairPrice(pair) * 1000;
    assert.ok(usdcPerSol > 20 && usdcPerSol < 2000, String(usdcPerSol));
  });
});

describe('Meteora DAMM v2 Pool (real pool 6CXXieC3…)', () => {
  const dump = loadAccount('meteora-damm-v2-pool-6CXXieC3.json');
  it('decodes mints, vaults, liquidity and the permanently locked share', () => {
    const pool = expectDecoded(decodeDammV2Pool(dump.data));
    assert.equal(pool.mintA, 'G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS');
    assert.equal(pool.mintB, WSOL_MINT);
    assert.equal(pool.vaultA, '9B3KPhHyDhUmNvjY2vk6JYs3vfUgPTzB9u1fWYsfK1s5');
    assert.equal(pool.vaultB, 'wAx8Her71ffN9hNyh5nj6WR7m56tAGrkajNiEdoGy4G');
    assert.equal(pool.liquidity, 2_461_259_741_443_399_418_112_242_871_877_920n);
    assert.equal(pool.permanentLockLiquidity, 2_217_449_760_464_976_157_620_544_597_834_290n);
    assert.equal(pool.sqrtPriceX64, 26_122_654_118_776_782n);
    assert.equal(pool.creator, 'FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM');
  });
  it('refuses a PumpSwap pool (same discriminator, other length)', () => {
    assert.equal(decodeDammV2Pool(loadAccount('pumpswap-pool-2fWkVf-wsol.json').data).ok, false);
  });
  it('the vault owner is the program\'s "pool_authority" PDA', async () => {
    const [authority] = await getProgramDerivedAddress({
      programAddress: METEORA_DAMM_V2_PROGRAM,
      seeds: ['pool_authority'],
    });
    assert.equal(authority, METEORA_DAMM_V2_POOL_AUTHORITY);
  });
});

describe("Raydium's LP lock", () => {
  it('its CPMM lock authority is the PDA ["lock_cp_authority_seed"] of the lock program', async () => {
    const [authority] = await getProgramDerivedAddress({
      programAddress: RAYDIUM_LP_LOCK_PROGRAM,
      seeds: ['lock_cp_authority_seed'],
    });
    assert.equal(authority, RAYDIUM_CP_LOCK_AUTHORITY);
  });
});

describe('every pool decoder refuses foreign bytes without throwing', () => {
  it('empty, short and other-kind accounts give a reason', () => {
    const samples: Uint8Array[] = [new Uint8Array(0), new Uint8Array(7), new Uint8Array(2000).fill(0xff)];
    const decoders = [
      decodeRaydiumAmmV4,
      decodeRaydiumCpmmPool,
      decodeRaydiumClmmPool,
      decodeWhirlpool,
      decodeLbPair,
      decodeDammV2Pool,
      decodeDammV1Pool,
    ];
    for (const decode of decoders) for (const s of samples) assert.equal(decode(s).ok, false);
  });
});
