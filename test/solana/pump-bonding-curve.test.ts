import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import {
  BONDING_CURVE_DISCRIMINATOR,
  curveProgress,
  decodeBondingCurve,
  findBondingCurveAddress,
  INITIAL_REAL_TOKEN_RESERVES,
} from '../../src/solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, USDC_MINT, WSOL_MINT } from '../../src/solana/programs.js';
import { concat, key, u64 } from './bytes.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const FW5X_CREATOR = '89YMNptpZLBo21N8uzPXCQ2M4QrpimfDhJGvibyR9fpW';

describe('decodeBondingCurve on real curves', () => {
  it('the Fw5x… curve: reserves, creator, cashback flag and ≈0.13 % progress', async () => {
    const account = loadAccount('pump-bonding-curve-Fw5xoxp3.json');
    assert.equal(account.owner, PUMP_PROGRAM);
    const curve = expectDecoded(decodeBondingCurve(account.data));
    assert.deepEqual(curve, {
      dataLength: 115,
      virtualTokenReserves: 1_071_933_789_586_532n,
      virtualQuoteReserves: 30_029_839_822n,
      realTokenReserves: 792_033_789_586_532n,
      realQuoteReserves: 29_839_822n,
      tokenTotalSupply: 1_000_000_000_000_000n,
      complete: false,
      creator: FW5X_CREATOR,
      isMayhemMode: false,
      isCashbackCoin: true,
      quoteMint: WSOL_MINT,
      creatorFeeBps: null,
      canEditCreatorFee: null,
      isHolderReward: null,
    });
    // 1 − 792,033,789,586,532 / 793,100,000,000,000 = 1,066,210,413,468 / 793.1e12
    assert.ok(Math.abs(curveProgress(curve) - 1_066_210_413_468 / 793_100_000_000_000) < 1e-15);
    assert.equal(curveProgress(curve).toFixed(4), '0.0013');
    assert.equal(
      await findBondingCurveAddress('Fw5xoxp3JYrW1ELUCQ98t3MvRiMKSFk7WBEsMs8Gpump' as Address),
      account.address,
    );
  });

  it('the fresh 3xM2… curve: initial reserves, 0 % progress, PDA of its mint', async () => {
    const account = loadAccount('pump-bonding-curve-3xM2iMg4.json');
    const curve = expectDecoded(decodeBondingCurve(account.data));
    assert.equal(curve.virtualTokenReserves, 1_073_000_000_000_000n);
    assert.equal(curve.virtualQuoteReserves, 30_000_000_001n);
    assert.equal(curve.realTokenReserves, 793_100_000_000_000n);
    assert.equal(curve.realQuoteReserves, 1n);
    assert.equal(curve.tokenTotalSupply, 1_000_000_000_000_000n);
    assert.equal(curve.complete, false);
    assert.equal(curve.creator, 'Acp2tKDySe79AsxokjeEy7VdrvWD8bR4V9rLSFkvo6sx');
    assert.equal(curve.isMayhemMode, false);
    assert.equal(curve.isCashbackCoin, false);
    assert.equal(curve.quoteMint, WSOL_MINT);
    assert.equal(curveProgress(curve), 0);
    assert.equal(
      await findBondingCurveAddress('3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump' as Address),
      account.address,
    );
  });

  it('the discriminator is sha256("account:BondingCurve")[0..8]', () => {
    const digest = createHash('sha256').update('account:BondingCurve').digest();
    assert.deepEqual([...digest.subarray(0, 8)], BONDING_CURVE_DISCRIMINATOR);
  });
});

describe('decodeBondingCurve across historical lengths', () => {
  const real = loadAccount('pump-bonding-curve-Fw5xoxp3.json').data;
  const newerTail = concat(u64(30n), [1]);

  it('49 bytes (original): reserves and complete only', () => {
    const curve = expectDecoded(decodeBondingCurve(real.subarray(0, 49)));
    assert.equal(curve.dataLength, 49);
    assert.equal(curve.realTokenReserves, 792_033_789_586_532n);
    assert.equal(curve.complete, false);
    assert.equal(curve.creator, null);
    assert.equal(curve.isMayhemMode, null);
    assert.equal(curve.isCashbackCoin, null);
    assert.equal(curve.quoteMint, WSOL_MINT);
  });

  it('81 bytes adds the creator; 82 the mayhem flag; 83 the cashback flag', () => {
    const at81 = expectDecoded(decodeBondingCurve(real.subarray(0, 81)));
    assert.equal(at81.creator, FW5X_CREATOR);
    assert.equal(at81.isMayhemMode, null);
    const at82 = expectDecoded(decodeBondingCurve(real.subarray(0, 82)));
    assert.equal(at82.isMayhemMode, false);
    assert.equal(at82.isCashbackCoin, null);
    const at83 = expectDecoded(decodeBondingCurve(real.subarray(0, 83)));
    assert.equal(at83.isCashbackCoin, true);
    assert.equal(at83.creatorFeeBps, null);
  });

  it('115 bytes adds the quote mint, zero meaning SOL', () => {
    const usdcQuoted = concat(real.subarray(0, 83), key(USDC_MINT));
    assert.equal(expectDecoded(decodeBondingCurve(usdcQuoted)).quoteMint, USDC_MINT);
  });

  it('124 bytes adds creator fee settings; 125 the holder-reward flag; 151 is 125 plus reserved space', () => {
    const at124 = expectDecoded(decodeBondingCurve(concat(real, newerTail)));
    assert.equal(at124.creatorFeeBps, 30n);
    assert.equal(at124.canEditCreatorFee, true);
    assert.equal(at124.isHolderReward, null);
    const at125 = expectDecoded(decodeBondingCurve(concat(real, newerTail, [1])));
    assert.equal(at125.isHolderReward, true);
    const at151 = expectDecoded(decodeBondingCurve(concat(real, newerTail, [1], new Uint8Array(26))));
    assert.equal(at151.dataLength, 151);
    assert.deepEqual({ ...at151, dataLength: 125 }, at125);
  });

  it('a mayhem-mode curve reports the flag', () => {
    const mayhem = real.slice();
    mayhem[81] = 1;
    assert.equal(expectDecoded(decodeBondingCurve(mayhem)).isMayhemMode, true);
  });

  it('short data, foreign data and a zero creator', () => {
    const short = decodeBondingCurve(real.subarray(0, 48));
    assert.equal(short.ok || short.reason, 'truncated');
    const tiny = decodeBondingCurve(real.subarray(0, 3));
    assert.equal(tiny.ok || tiny.reason, 'truncated');
    const foreign = decodeBondingCurve(loadAccount('pumpswap-pool-2fWkVf-wsol.json').data);
    assert.equal(foreign.ok || foreign.reason, 'wrong-kind');
    const zeroCreator = concat(real.subarray(0, 49), new Uint8Array(32));
    assert.equal(expectDecoded(decodeBondingCurve(zeroCreator)).creator, null);
  });
});

describe('curveProgress', () => {
  it('is 1 once complete, 0 for a fresh or over-full curve, and proportional in between', () => {
    assert.equal(curveProgress({ realTokenReserves: 0n, complete: true }), 1);
    assert.equal(curveProgress({ realTokenReserves: 5n, complete: true }), 1);
    assert.equal(curveProgress({ realTokenReserves: INITIAL_REAL_TOKEN_RESERVES, complete: false }), 0);
    assert.equal(curveProgress({ realTokenReserves: INITIAL_REAL_TOKEN_RESERVES + 1n, complete: false }), 0);
    assert.equal(
      curveProgress({ realTokenReserves: INITIAL_REAL_TOKEN_RESERVES / 4n, complete: false }),
      0.75,
    );
    assert.equal(curveProgress({ realTokenReserves: 0n, complete: false }), 1);
    assert.equal(curveProgress({ realTokenReserves: 50n, complete: false }, 100n), 0.5);
  });
});
