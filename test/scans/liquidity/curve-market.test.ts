/**
 * A pump.fun bonding curve as the token's market (pure): on real curve bytes, a live curve is a
 * market whose depth is its real quote reserves, with no LP; a complete curve, or an account of
 * another program at the curve's address, is none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { curveMarketOf, DEX_NAMES } from '../../../src/scans/liquidity/markets.js';
import type { RawAccount } from '../../../src/scans/token-facts/model.js';
import { decodeBondingCurve } from '../../../src/solana/decoders/pump-bonding-curve.js';
import { PUMPSWAP_PROGRAM, WSOL_MINT } from '../../../src/solana/programs.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

const dump = loadAccount('pump-bonding-curve-3xM2iMg4.json');
const VAULT = '9wFFyRfZBsuAha4YcuxcXLKwMxJR43S7fPfQLusDBzvT' as Address;
const account = (data: Uint8Array, owner = dump.owner): RawAccount => ({
  address: dump.address,
  owner,
  lamports: dump.lamports,
  data,
});
/** The `complete` flag: after the discriminator and five u64 reserves. */
const COMPLETE_OFFSET = 48;

describe('curveMarketOf: a pump.fun bonding curve as a market', () => {
  it('a live curve (real mainnet bytes): depth is its real reserves, price its virtual ones, no LP', () => {
    const curve = expectDecoded(decodeBondingCurve(dump.data));
    assert.equal(curve.complete, false);
    const market = curveMarketOf(account(dump.data), VAULT);
    assert.deepEqual(market, {
      dex: 'pumpfun-curve',
      pool: dump.address,
      baseVault: VAULT,
      quoteVault: dump.address,
      quoteMint: WSOL_MINT,
      lpMint: null,
      poolLpSupply: null,
      statePrice: Number(curve.virtualQuoteReserves) / Number(curve.virtualTokenReserves),
      quoteNotLiquidity: 0n,
      stateDepth: curve.realQuoteReserves,
    });
    assert.equal(DEX_NAMES['pumpfun-curve'], 'pump.fun bonding curve');
  });

  it('a complete curve is no market (the coin migrated)', () => {
    const complete = new Uint8Array(dump.data);
    complete[COMPLETE_OFFSET] = 1;
    assert.equal(expectDecoded(decodeBondingCurve(complete)).complete, true);
    assert.equal(curveMarketOf(account(complete), VAULT), null);
  });

  it('an account the pump program does not own, or that is no curve, is no market', () => {
    assert.equal(curveMarketOf(account(dump.data, PUMPSWAP_PROGRAM), VAULT), null);
    assert.equal(curveMarketOf(account(new Uint8Array(dump.data.length)), VAULT), null);
  });
});
