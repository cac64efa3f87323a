/**
 * Concentrated pools located from the largest holders with local work only, on real mainnet pools
 * (fixtures/mainnet): a token whose vault one of them owns is found with its DEX, and an
 * off-curve owner that is no such pool, or a wallet, is not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateKeyPairSigner, getProgramDerivedAddress } from '@solana/kit';
import {
  locateConcentratedPools,
  ORCA_WHIRLPOOLS_CONFIG,
  whirlpoolAddresses,
} from '../../../src/scans/liquidity/positions-locate.js';
import { decodeLbPair } from '../../../src/solana/decoders/meteora-dlmm.js';
import { decodeWhirlpool } from '../../../src/solana/decoders/orca-whirlpool.js';
import { decodeRaydiumClmmPool } from '../../../src/solana/decoders/raydium-clmm.js';
import { TOKEN_PROGRAM } from '../../../src/solana/programs.js';
import { factsHeldBy } from '../../helpers/token-accounts.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

describe('locateConcentratedPools (real pools)', () => {
  it("an Orca Whirlpool under Orca's public config: the PDA for its mints and tick spacing", async () => {
    const dump = loadAccount('orca-whirlpool-CGGNcohZ.json');
    const pool = expectDecoded(decodeWhirlpool(dump.data));
    assert.equal(pool.config, ORCA_WHIRLPOOLS_CONFIG);
    assert.ok((await whirlpoolAddresses(pool.mintB)).includes(dump.address));
    assert.deepEqual(await locateConcentratedPools(factsHeldBy(pool.mintB, pool.vaultB, dump.address)), [
      { dex: 'orca-whirlpool', pool: dump.address, amount: 1_000n },
    ]);
  });

  it('a Raydium CLMM pool: its vault is the PDA ["pool_vault", pool, mint]', async () => {
    const dump = loadAccount('raydium-clmm-pool-AcPS8Srz.json');
    const pool = expectDecoded(decodeRaydiumClmmPool(dump.data));
    const found = await locateConcentratedPools(factsHeldBy(pool.mintB, pool.vaultB, dump.address));
    assert.deepEqual(found, [{ dex: 'raydium-clmm', pool: dump.address, amount: 1_000n }]);
  });

  it('a Meteora DLMM pair: its reserve is the PDA [pair, mint]', async () => {
    const dump = loadAccount('meteora-dlmm-lbpair-7ubS3Gcc.json');
    const pair = expectDecoded(decodeLbPair(dump.data));
    const found = await locateConcentratedPools(factsHeldBy(pair.mintA, pair.vaultA, dump.address));
    assert.deepEqual(found, [{ dex: 'meteora-dlmm', pool: dump.address, amount: 1_000n }]);
  });

  it('another program-controlled owner, or a wallet, is no concentrated pool', async () => {
    const dump = loadAccount('raydium-clmm-pool-AcPS8Srz.json');
    const pool = expectDecoded(decodeRaydiumClmmPool(dump.data));
    const [other] = await getProgramDerivedAddress({ programAddress: TOKEN_PROGRAM, seeds: ['not a pool'] });
    assert.deepEqual(await locateConcentratedPools(factsHeldBy(pool.mintB, pool.vaultB, other)), []);
    const wallet = (await generateKeyPairSigner()).address;
    assert.deepEqual(await locateConcentratedPools(factsHeldBy(pool.mintB, pool.vaultB, wallet)), []);
  });
});
