import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Address, getProgramDerivedAddress } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import bs58 from 'bs58';
import * as programs from '../../src/solana/programs.js';
import { loadAccount, readFixtureJson } from './fixtures.js';

function exportedAddresses(): [string, Address][] {
  return Object.entries(programs).flatMap(([name, value]) => {
    if (typeof value === 'string') return [[name, value as Address] as [string, Address]];
    if (Array.isArray(value))
      return value.map((item, i) => [`${name}[${i}]`, item as Address] as [string, Address]);
    return [];
  });
}

describe('well-known addresses', () => {
  it('every constant is base58 of exactly 32 bytes', () => {
    const all = exportedAddresses();
    assert.ok(all.length >= 45, `only ${all.length} addresses exported`);
    for (const [name, value] of all) {
      assert.equal(bs58.decode(value).length, 32, name);
    }
  });

  it('every constant has a display name, and no two constants share a value', () => {
    const all = exportedAddresses();
    for (const [name, value] of all) assert.ok(programs.WELL_KNOWN_ADDRESS_NAMES.has(value), name);
    assert.equal(new Set(all.map(([, value]) => value)).size, all.length);
    assert.equal(programs.WELL_KNOWN_ADDRESS_NAMES.size, all.length);
  });

  it('matches the program ids the @solana-program packages use', () => {
    assert.equal(programs.SYSTEM_PROGRAM, SYSTEM_PROGRAM_ADDRESS);
    assert.equal(programs.TOKEN_PROGRAM, TOKEN_PROGRAM_ADDRESS);
    assert.equal(programs.TOKEN_2022_PROGRAM, TOKEN_2022_PROGRAM_ADDRESS);
    assert.equal(programs.ASSOCIATED_TOKEN_PROGRAM, ASSOCIATED_TOKEN_PROGRAM_ADDRESS);
    assert.equal(programs.COMPUTE_BUDGET_PROGRAM, COMPUTE_BUDGET_PROGRAM_ADDRESS);
  });

  it('matches the addresses and owners of the real mainnet account dumps', () => {
    assert.equal(loadAccount('usdc-mint.json').address, programs.USDC_MINT);
    assert.equal(loadAccount('usdt-mint.json').address, programs.USDT_MINT);
    assert.equal(loadAccount('pyusd-mint-t22-2024-06.json').address, programs.PYUSD_MINT);
    assert.equal(loadAccount('wsol-native-mint.json').address, programs.WSOL_MINT);
    assert.equal(loadAccount('token-metadata-program.json').address, programs.TOKEN_METADATA_PROGRAM);
    assert.equal(loadAccount('token-metadata-program.json').owner, programs.BPF_UPGRADEABLE_LOADER);
    assert.equal(loadAccount('pump-bonding-curve-3xM2iMg4.json').owner, programs.PUMP_PROGRAM);
    assert.equal(loadAccount('pumpswap-pool-2fWkVf-wsol.json').owner, programs.PUMPSWAP_PROGRAM);
    assert.equal(loadAccount('sanctum-router-alt.json').owner, programs.ADDRESS_LOOKUP_TABLE_PROGRAM);
    assert.equal(loadAccount('meteora-dlmm-lbpair-5rCf1DM8.json').owner, programs.METEORA_DLMM_PROGRAM);
  });

  it('memo v2 and Jupiter v6 are the ids real mainnet transactions invoke', () => {
    const memoTx = JSON.stringify(readFixtureJson('rpc/getTransaction-v0-sol-transfer-memo-2E9Ddokz.json'));
    assert.ok(memoTx.includes(programs.MEMO_PROGRAM));
    const jupiterTx = JSON.stringify(readFixtureJson('rpc/getTransaction-jupiter-usdc-swap-494hTE5g.json'));
    assert.ok(jupiterTx.includes(programs.JUPITER_V6_PROGRAM));
  });

  it('the pump and PumpSwap singleton accounts are the PDAs of their documented seeds', async () => {
    const pda = async (programAddress: Address, seed: string) =>
      (await getProgramDerivedAddress({ programAddress, seeds: [seed] }))[0];
    assert.equal(await pda(programs.PUMP_PROGRAM, 'global'), programs.PUMP_GLOBAL);
    assert.equal(await pda(programs.PUMP_PROGRAM, 'mint-authority'), programs.PUMP_MINT_AUTHORITY);
    assert.equal(await pda(programs.PUMP_PROGRAM, '__event_authority'), programs.PUMP_EVENT_AUTHORITY);
    assert.equal(await pda(programs.PUMPSWAP_PROGRAM, 'global_config'), programs.PUMPSWAP_GLOBAL_CONFIG);
  });
});
