/**
 * Accounts a trade-size quote reads, in their programs' real layouts (the offsets the decoders
 * read): Pyth's PriceUpdateV2, Orca Whirlpool and Raydium CLMM tick arrays, Meteora DLMM bin
 * arrays. The sandbox writes them directly: it runs none of these programs.
 */
import type { Address } from '@solana/kit';
import {
  BIN_ARRAY_DISCRIMINATOR,
  BIN_ARRAY_SIZE,
  BIN_SIZE,
} from '../../../solana/decoders/meteora-dlmm-bin-array.js';
import { PRICE_UPDATE_V2_DISCRIMINATOR } from '../../../solana/decoders/pyth-price-update.js';
import {
  CLMM_TICK_ARRAY_DISCRIMINATOR,
  CLMM_TICK_ARRAY_SIZE,
  CLMM_TICK_SIZE,
  WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR,
  WHIRLPOOL_TICK_ARRAY_SIZE,
  WHIRLPOOL_TICK_SIZE,
  WHIRLPOOL_TICKS_PER_ARRAY,
} from '../../../solana/decoders/tick-arrays.js';
import { pubkey } from './bytes.js';
import { u128 } from './pool-layouts.js';

/** Two's complement, as the programs store an i128. */
const i128 = (value: bigint) => u128(value < 0n ? 2n ** 128n + value : value);

export interface PriceUpdateFields {
  writeAuthority: Address;
  feedIdHex: string;
  price: bigint;
  conf: bigint;
  exponent: number;
  publishTime: bigint;
  postedSlot: bigint;
}

/** A fully verified PriceUpdateV2 (verification level Full: one byte), 134 bytes as Pyth allocates it. */
export function encodePriceUpdateV2(f: PriceUpdateFields): Uint8Array {
  const data = new Uint8Array(134);
  const view = new DataView(data.buffer);
  data.set(PRICE_UPDATE_V2_DISCRIMINATOR, 0);
  data.set(pubkey(f.writeAuthority), 8);
  data[40] = 1;
  data.set(Buffer.from(f.feedIdHex, 'hex'), 41);
  view.setBigInt64(73, f.price, true);
  view.setBigUint64(81, f.conf, true);
  view.setInt32(89, f.exponent, true);
  view.setBigInt64(93, f.publishTime, true);
  view.setBigInt64(101, f.publishTime, true);
  view.setBigInt64(109, f.price, true);
  view.setBigUint64(117, f.conf, true);
  view.setBigUint64(125, f.postedSlot, true);
  return data;
}

export interface TickFields {
  index: number;
  liquidityNet: bigint;
  liquidityGross: bigint;
}

export function encodeWhirlpoolTickArray(
  whirlpool: Address,
  start: number,
  spacing: number,
  ticks: readonly TickFields[],
): Uint8Array {
  const data = new Uint8Array(WHIRLPOOL_TICK_ARRAY_SIZE);
  data.set(WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR, 0);
  new DataView(data.buffer).setInt32(8, start, true);
  for (const t of ticks) {
    const at = 12 + ((t.index - start) / spacing) * WHIRLPOOL_TICK_SIZE;
    data[at] = 1;
    data.set(i128(t.liquidityNet), at + 1);
    data.set(i128(t.liquidityGross), at + 17);
  }
  data.set(pubkey(whirlpool), 12 + WHIRLPOOL_TICKS_PER_ARRAY * WHIRLPOOL_TICK_SIZE);
  return data;
}

export function encodeClmmTickArray(
  pool: Address,
  start: number,
  spacing: number,
  ticks: readonly TickFields[],
): Uint8Array {
  const data = new Uint8Array(CLMM_TICK_ARRAY_SIZE);
  const view = new DataView(data.buffer);
  data.set(CLMM_TICK_ARRAY_DISCRIMINATOR, 0);
  data.set(pubkey(pool), 8);
  view.setInt32(40, start, true);
  for (const t of ticks) {
    const at = 44 + ((t.index - start) / spacing) * CLMM_TICK_SIZE;
    view.setInt32(at, t.index, true);
    data.set(i128(t.liquidityNet), at + 4);
    data.set(i128(t.liquidityGross), at + 20);
  }
  data[44 + 60 * CLMM_TICK_SIZE] = ticks.length;
  return data;
}

export function encodeBinArray(
  pair: Address,
  index: number,
  bins: readonly { id: number; amountX: bigint; amountY: bigint }[],
): Uint8Array {
  const data = new Uint8Array(BIN_ARRAY_SIZE);
  const view = new DataView(data.buffer);
  data.set(BIN_ARRAY_DISCRIMINATOR, 0);
  view.setBigInt64(8, BigInt(index), true);
  data[16] = 1;
  data.set(pubkey(pair), 24);
  for (const b of bins) {
    const at = 56 + (b.id - index * 70) * BIN_SIZE;
    view.setBigUint64(at, b.amountX, true);
    view.setBigUint64(at + 8, b.amountY, true);
  }
  return data;
}
