/**
 * Each layout the sandbox writes with a decoder's codec comes back through that decoder as what was
 * written: a builder and its decoder cannot drift apart, field by field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { address } from '@solana/kit';
import {
  encodeBinArray,
  encodeClmmTickArray,
  encodePriceUpdateV2,
  encodeWhirlpoolTickArray,
} from '../../../src/sandbox/scenarios/builders/trade-layouts.js';
import { encodeWhirlpoolPosition } from '../../../src/sandbox/scenarios/builders/whirlpool-positions.js';
import { decodeBinArray } from '../../../src/solana/decoders/meteora-dlmm-bin-array.js';
import { decodeWhirlpoolPosition } from '../../../src/solana/decoders/orca-whirlpool-position.js';
import {
  decodePriceUpdateV2,
  PRICE_UPDATE_V2_SIZE,
  PYTH_RECEIVER_PROGRAM,
  PYTH_SOL_USD_FEED_ID,
} from '../../../src/solana/decoders/pyth-price-update.js';
import {
  CLMM_TICK_ARRAY_SIZE,
  decodeClmmTickArray,
  decodeWhirlpoolTickArray,
  WHIRLPOOL_TICK_ARRAY_SIZE,
} from '../../../src/solana/decoders/tick-arrays.js';
import { expectDecoded } from '../fixtures.js';

const A = address('7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE');
const B = address('whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc');
const BIG = 2n ** 100n + 7n;

describe('sandbox builders read back through the decoders', () => {
  it('Pyth PriceUpdateV2: 134 bytes, fully verified, every field as written', () => {
    const fields = { price: -12_345_678n, conf: 9_876n, exponent: -8, publishTime: 1_767_225_600n };
    const bytes = encodePriceUpdateV2({
      ...fields,
      writeAuthority: A,
      feedIdHex: PYTH_SOL_USD_FEED_ID,
      postedSlot: 400_000_123n,
    });
    assert.equal(bytes.length, PRICE_UPDATE_V2_SIZE);
    assert.deepEqual(expectDecoded(decodePriceUpdateV2(bytes, PYTH_RECEIVER_PROGRAM)), {
      ...fields,
      feedId: PYTH_SOL_USD_FEED_ID,
      fullyVerified: true,
      postedSlot: 400_000_123n,
    });
  });

  it('Whirlpool tick array: the initialized ticks, their net liquidity signed, and the pool', () => {
    const ticks = [
      { index: -5632, liquidityNet: BIG, liquidityGross: BIG },
      { index: -64, liquidityNet: -BIG, liquidityGross: BIG },
    ];
    const bytes = encodeWhirlpoolTickArray(B, -5632, 64, ticks);
    assert.equal(bytes.length, WHIRLPOOL_TICK_ARRAY_SIZE);
    assert.deepEqual(expectDecoded(decodeWhirlpoolTickArray(bytes, 64)), {
      pool: B,
      startTickIndex: -5632,
      ticks: ticks.map(({ index, liquidityNet }) => ({ index, liquidityNet })),
    });
  });

  it('Raydium CLMM tick array: the ticks with liquidity, in their slots, and the pool', () => {
    const ticks = [
      { index: 600, liquidityNet: BIG, liquidityGross: BIG },
      { index: 1140, liquidityNet: -3n, liquidityGross: 3n },
    ];
    const bytes = encodeClmmTickArray(A, 600, 10, ticks);
    assert.equal(bytes.length, CLMM_TICK_ARRAY_SIZE);
    assert.deepEqual(expectDecoded(decodeClmmTickArray(bytes, 10)), {
      pool: A,
      startTickIndex: 600,
      ticks: ticks.map(({ index, liquidityNet }) => ({ index, liquidityNet })),
    });
  });

  it('Meteora DLMM bin array: each bin of the array at its id, empty bins zero', () => {
    const bins = [
      { id: -70, amountX: 5n, amountY: 0n },
      { id: -1, amountX: 0n, amountY: 2n ** 63n },
    ];
    const decoded = expectDecoded(decodeBinArray(encodeBinArray(B, -1, bins)));
    assert.equal(decoded.index, -1n);
    assert.equal(decoded.pair, B);
    assert.equal(decoded.bins.length, 70);
    assert.deepEqual(decoded.bins[0], bins[0]);
    assert.deepEqual(decoded.bins[69], bins[1]);
    assert.deepEqual(decoded.bins[30], { id: -40, amountX: 0n, amountY: 0n });
  });

  it('Whirlpool position: pool, NFT mint, a liquidity past 64 bits and both ticks', () => {
    const position = {
      whirlpool: A,
      positionMint: B,
      liquidity: BIG,
      tickLower: -443_584,
      tickUpper: 443_584,
    };
    assert.deepEqual(expectDecoded(decodeWhirlpoolPosition(encodeWhirlpoolPosition(position))), position);
  });
});
