/** Which AMM v4 searches a scan sends, in which order, and what their answers mean (pure). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import {
  ammV4Filters,
  ammV4SearchOutcome,
  locatedAmmV4Pools,
  MAX_AMM_V4_SEARCHES,
  nextAmmV4Searches,
  searchKey,
} from '../../../src/scans/liquidity/amm-v4-search.js';
import type { UnlocatedVault } from '../../../src/scans/liquidity/model.js';
import { RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_CPMM_AUTHORITY } from '../../../src/solana/programs.js';

const VAULT = 'DQyrAcCrDXQ7NeoqGgDCZwBvWDcYmFCjSb9JtteuvPpz' as Address;
const POOL = '58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2' as Address;
const vault = (tokenAccount: Address, dex: UnlocatedVault['dex'] = 'raydium-amm-v4'): UnlocatedVault => ({
  dex,
  tokenAccount,
  owner: dex === 'raydium-amm-v4' ? RAYDIUM_AMM_V4_AUTHORITY : RAYDIUM_CPMM_AUTHORITY,
  amount: 1n,
});

describe('AMM v4 pool searches', () => {
  it('filters on AmmInfo size (752) and the vault at offset 336 (coin) or 368 (pc)', () => {
    const [size, coin] = ammV4Filters({ vault: VAULT, side: 'coin' });
    assert.deepEqual(size, { dataSize: 752n });
    assert.deepEqual(coin, { memcmp: { offset: 336n, bytes: VAULT, encoding: 'base58' } });
    assert.equal(ammV4Filters({ vault: VAULT, side: 'pc' })[1]?.memcmp?.offset, 368n);
  });

  it('no AMM v4 vault, no search (another DEX’s shared vault is not searched)', () => {
    assert.deepEqual(nextAmmV4Searches([], new Map()), []);
    assert.deepEqual(nextAmmV4Searches([vault(VAULT, 'raydium-cpmm')], new Map()), []);
  });

  it('the coin side first; the pc side only when the coin side found nothing', () => {
    const v = [vault(VAULT)];
    assert.deepEqual(nextAmmV4Searches(v, new Map()), [{ vault: VAULT, side: 'coin' }]);
    const found = new Map([[searchKey({ vault: VAULT, side: 'coin' }), [POOL]]]);
    assert.deepEqual(nextAmmV4Searches(v, found), []);
    assert.deepEqual(locatedAmmV4Pools(found), [POOL]);
    const empty = new Map([[searchKey({ vault: VAULT, side: 'coin' }), [] as Address[]]]);
    assert.deepEqual(nextAmmV4Searches(v, empty), [{ vault: VAULT, side: 'pc' }]);
    assert.equal(ammV4SearchOutcome(VAULT, empty), 'not-searched');
    const both = new Map([...empty, [searchKey({ vault: VAULT, side: 'pc' }), [] as Address[]]]);
    assert.deepEqual(nextAmmV4Searches(v, both), []);
    assert.equal(ammV4SearchOutcome(VAULT, both), 'not-found');
  });

  it('a vault still unlocated after its search found an account: that account is no pool of the token, not "not searched"', () => {
    const found = new Map([[searchKey({ vault: VAULT, side: 'coin' }), [POOL]]]);
    assert.equal(ammV4SearchOutcome(VAULT, found), 'not-a-pool');
    const pcFound = new Map([
      [searchKey({ vault: VAULT, side: 'coin' }), [] as Address[]],
      [searchKey({ vault: VAULT, side: 'pc' }), [POOL]],
    ]);
    assert.equal(ammV4SearchOutcome(VAULT, pcFound), 'not-a-pool');
  });

  it('a refused search is not retried on the other side, and says so', () => {
    const refused = new Map([[searchKey({ vault: VAULT, side: 'coin' }), null]]);
    assert.deepEqual(nextAmmV4Searches([vault(VAULT)], refused), []);
    assert.deepEqual(locatedAmmV4Pools(refused), []);
    assert.equal(ammV4SearchOutcome(VAULT, refused), 'failed');
    assert.equal(ammV4SearchOutcome(VAULT, undefined), 'not-searched');
  });

  it(`searches at most ${MAX_AMM_V4_SEARCHES} vaults`, () => {
    const many = [VAULT, POOL, RAYDIUM_CPMM_AUTHORITY].map((a) => vault(a));
    assert.equal(nextAmmV4Searches(many, new Map()).length, MAX_AMM_V4_SEARCHES);
  });
});
