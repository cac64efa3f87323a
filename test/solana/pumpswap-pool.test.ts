import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import {
  decodePumpSwapGlobalConfig,
  decodePumpSwapPool,
  findCanonicalPumpPoolAddress,
  findPumpPoolAuthority,
  findPumpSwapLpMint,
  GLOBAL_CONFIG_DISCRIMINATOR,
  POOL_DISCRIMINATOR,
} from '../../src/solana/decoders/pumpswap-pool.js';
import {
  PUMPSWAP_GLOBAL_CONFIG,
  PUMPSWAP_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../src/solana/programs.js';
import { concat, key } from './bytes.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const MINT = '2fWkVf417bfxEgUemymkYNagXVitnmNxvq7dhUwnpump' as Address;
const COIN_CREATOR = '89YMNptpZLBo21N8uzPXCQ2M4QrpimfDhJGvibyR9fpW' as Address;

function discriminatorOf(name: string): number[] {
  return [...createHash('sha256').update(`account:${name}`).digest().subarray(0, 8)];
}

describe('decodePumpSwapPool', () => {
  const account = loadAccount('pumpswap-pool-2fWkVf-wsol.json');

  it('decodes the real 211-byte pool of a graduated legacy pump coin', () => {
    assert.equal(account.owner, PUMPSWAP_PROGRAM);
    assert.deepEqual(expectDecoded(decodePumpSwapPool(account.data)), {
      dataLength: 211,
      poolBump: 255,
      index: 0,
      creator: '3X9pcDuzyVpN659g76tXYEhpCMR8vbM36faDeDBMGFnm',
      baseMint: MINT,
      quoteMint: WSOL_MINT,
      lpMint: '6793kQoqgH1B2ZDhrYLHTXJSC2JbjEiEBDhxDQYj8Ptx',
      poolBaseTokenAccount: 'EqQTQtw3hpmyzWzxiAMwBceGb6i8e8Nsq7ZDLj8fcjJM',
      poolQuoteTokenAccount: 'CuxEC31tUC4ZnydbUqM4XXuG8KZfMbcXJ6HanrGB2hW',
      lpSupply: 4_193_388_283_912n,
      coinCreator: null,
      isMayhemMode: null,
    });
  });

  it('the canonical pool, its creator, LP mint and vaults are the documented PDAs', async () => {
    const pool = expectDecoded(decodePumpSwapPool(account.data));
    assert.equal(await findPumpPoolAuthority(MINT), pool.creator);
    assert.equal(await findCanonicalPumpPoolAddress(MINT), account.address);
    assert.equal(await findPumpSwapLpMint(account.address), pool.lpMint);
    const [baseVault] = await findAssociatedTokenPda({
      owner: account.address,
      mint: MINT,
      tokenProgram: TOKEN_PROGRAM,
    });
    assert.equal(baseVault, pool.poolBaseTokenAccount);
    const [quoteVault] = await findAssociatedTokenPda({
      owner: account.address,
      mint: WSOL_MINT,
      tokenProgram: TOKEN_PROGRAM,
    });
    assert.equal(quoteVault, pool.poolQuoteTokenAccount);
  });

  it('reads coin_creator and the mayhem flag from extended pools', () => {
    const extended = concat(account.data, key(COIN_CREATOR), [1], new Uint8Array(56));
    const pool = expectDecoded(decodePumpSwapPool(extended));
    assert.equal(pool.dataLength, 300);
    assert.equal(pool.coinCreator, COIN_CREATOR);
    assert.equal(pool.isMayhemMode, true);
    assert.equal(pool.lpSupply, 4_193_388_283_912n);
    const unsetCreator = expectDecoded(decodePumpSwapPool(concat(account.data, new Uint8Array(89))));
    assert.equal(unsetCreator.coinCreator, null);
    assert.equal(unsetCreator.isMayhemMode, false);
  });

  it('typed failures for short, foreign and empty data', () => {
    const short = decodePumpSwapPool(account.data.subarray(0, 150));
    assert.equal(short.ok || short.reason, 'truncated');
    const foreign = decodePumpSwapPool(loadAccount('pump-bonding-curve-3xM2iMg4.json').data);
    assert.equal(foreign.ok || foreign.reason, 'wrong-kind');
    const empty = decodePumpSwapPool(new Uint8Array(0));
    assert.equal(empty.ok || empty.reason, 'truncated');
  });

  it('discriminators are sha256("account:<Name>")[0..8]', () => {
    assert.deepEqual(discriminatorOf('Pool'), POOL_DISCRIMINATOR);
    assert.deepEqual(discriminatorOf('GlobalConfig'), GLOBAL_CONFIG_DISCRIMINATOR);
  });
});

describe('decodePumpSwapGlobalConfig', () => {
  it('decodes the real GlobalConfig: admin, fees, no disabled operations, 8 fee recipients', () => {
    const account = loadAccount('pumpswap-global-config.json');
    assert.equal(account.address, PUMPSWAP_GLOBAL_CONFIG);
    const config = expectDecoded(decodePumpSwapGlobalConfig(account.data));
    assert.equal(config.dataLength, 313);
    assert.equal(config.admin, 'FFWtrEQ4B4PKQoVuHYzZq8FabGkVatYzDpEVHsK5rrhF');
    assert.equal(config.lpFeeBasisPoints, 20n);
    assert.equal(config.protocolFeeBasisPoints, 5n);
    assert.equal(config.disableFlags, 0);
    assert.deepEqual(config.disabled, {
      createPool: false,
      deposit: false,
      withdraw: false,
      buy: false,
      sell: false,
    });
    const prefixes = [
      '62qc2CNX',
      '7VtfL8fv',
      '7hTckgnG',
      '9rPYyANs',
      'AVmoTthd',
      'FWsW1xNt',
      'G5UZAVbA',
      'JCRGumoE',
    ];
    assert.deepEqual(
      config.protocolFeeRecipients.map((recipient) => recipient.slice(0, 8)),
      prefixes,
    );
  });

  it('reads the coin creator fee of a config extended for it; none in the 313-byte original', () => {
    const original = loadAccount('pumpswap-global-config.json').data;
    assert.equal(expectDecoded(decodePumpSwapGlobalConfig(original)).coinCreatorFeeBasisPoints, null);
    const extended = new Uint8Array(original.length + 40);
    extended.set(original);
    extended[313] = 5; // coin_creator_fee_basis_points u64 LE, right after the 8 fee recipients
    assert.equal(expectDecoded(decodePumpSwapGlobalConfig(extended)).coinCreatorFeeBasisPoints, 5n);
  });

  it('reports which operations the admin has halted', () => {
    const data = loadAccount('pumpswap-global-config.json').data.slice();
    data[56] = 0b11000; // disable_flags follows discriminator, admin and two u64 fees
    const config = expectDecoded(decodePumpSwapGlobalConfig(data));
    assert.deepEqual(config.disabled, {
      createPool: false,
      deposit: false,
      withdraw: false,
      buy: true,
      sell: true,
    });
  });

  it('typed failures for short and foreign data', () => {
    const data = loadAccount('pumpswap-global-config.json').data;
    const short = decodePumpSwapGlobalConfig(data.subarray(0, 100));
    assert.equal(short.ok || short.reason, 'truncated');
    const foreign = decodePumpSwapGlobalConfig(loadAccount('pumpswap-pool-2fWkVf-wsol.json').data);
    assert.equal(foreign.ok || foreign.reason, 'wrong-kind');
  });
});
