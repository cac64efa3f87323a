/**
 * Accounts a trade-size quote reads, in their programs' real layouts, encoded with the codecs the
 * decoders read them with: Pyth's PriceUpdateV2, Orca Whirlpool and Raydium CLMM tick arrays, Meteora
 * DLMM bin arrays. The sandbox writes them directly: it runs none of these programs.
 */
import { type Address, fixEncoderSize } from '@solana/kit';
import { BIN_ARRAY_LAYOUT, BINS_PER_ARRAY } from '../../../solana/decoders/meteora-dlmm-bin-array.js';
import { PRICE_UPDATE_V2_CODEC, PRICE_UPDATE_V2_SIZE } from '../../../solana/decoders/pyth-price-update.js';
import {
  CLMM_TICK_ARRAY_LAYOUT,
  CLMM_TICKS_PER_ARRAY,
  WHIRLPOOL_TICK_ARRAY_LAYOUT,
  WHIRLPOOL_TICKS_PER_ARRAY,
} from '../../../solana/decoders/tick-arrays.js';

export interface PriceUpdateFields {
  writeAuthority: Address;
  feedIdHex: string;
  price: bigint;
  conf: bigint;
  exponent: number;
  publishTime: bigint;
  postedSlot: bigint;
}

const priceUpdateAccount = fixEncoderSize(PRICE_UPDATE_V2_CODEC, PRICE_UPDATE_V2_SIZE);

/** A fully verified PriceUpdateV2 (verification level Full: one byte), 134 bytes as Pyth allocates it. */
export function encodePriceUpdateV2(f: PriceUpdateFields): Uint8Array {
  return new Uint8Array(
    priceUpdateAccount.encode({
      writeAuthority: f.writeAuthority,
      verificationLevel: { __kind: 'Full' },
      feedId: f.feedIdHex,
      price: f.price,
      conf: f.conf,
      exponent: f.exponent,
      publishTime: f.publishTime,
      prevPublishTime: f.publishTime,
      emaPrice: f.price,
      emaConf: f.conf,
      postedSlot: f.postedSlot,
    }),
  );
}

export interface TickFields {
  index: number;
  liquidityNet: bigint;
  liquidityGross: bigint;
}

/** The tick in each of an array's `count` slots; undefined where none is initialized. */
function ticksBySlot(count: number, start: number, spacing: number, ticks: readonly TickFields[]) {
  const bySlot = new Map(ticks.map((t) => [(t.index - start) / spacing, t]));
  return Array.from({ length: count }, (_, slot) => bySlot.get(slot));
}

export function encodeWhirlpoolTickArray(
  whirlpool: Address,
  start: number,
  spacing: number,
  ticks: readonly TickFields[],
): Uint8Array {
  const empty = { initialized: false, liquidityNet: 0n, liquidityGross: 0n };
  const encoded = WHIRLPOOL_TICK_ARRAY_LAYOUT.encode({
    startTickIndex: start,
    ticks: ticksBySlot(WHIRLPOOL_TICKS_PER_ARRAY, start, spacing, ticks).map((tick) =>
      tick
        ? { initialized: true, liquidityNet: tick.liquidityNet, liquidityGross: tick.liquidityGross }
        : empty,
    ),
    whirlpool,
  });
  return new Uint8Array(encoded);
}

export function encodeClmmTickArray(
  pool: Address,
  start: number,
  spacing: number,
  ticks: readonly TickFields[],
): Uint8Array {
  const empty = { tick: 0, liquidityNet: 0n, liquidityGross: 0n };
  const encoded = CLMM_TICK_ARRAY_LAYOUT.encode({
    poolId: pool,
    startTickIndex: start,
    ticks: ticksBySlot(CLMM_TICKS_PER_ARRAY, start, spacing, ticks).map((tick) =>
      tick
        ? { tick: tick.index, liquidityNet: tick.liquidityNet, liquidityGross: tick.liquidityGross }
        : empty,
    ),
    initializedTickArrayCount: ticks.length,
  });
  return new Uint8Array(encoded);
}

export function encodeBinArray(
  pair: Address,
  index: number,
  bins: readonly { id: number; amountX: bigint; amountY: bigint }[],
): Uint8Array {
  const byId = new Map(bins.map((b) => [b.id, b]));
  const encoded = BIN_ARRAY_LAYOUT.encode({
    index: BigInt(index),
    version: 1,
    lbPair: pair,
    bins: Array.from({ length: BINS_PER_ARRAY }, (_, i) => {
      const bin = byId.get(index * BINS_PER_ARRAY + i);
      return { amountX: bin?.amountX ?? 0n, amountY: bin?.amountY ?? 0n };
    }),
  });
  return new Uint8Array(encoded);
}
