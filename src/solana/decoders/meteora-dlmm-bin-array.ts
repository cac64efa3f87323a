/**
 * Meteora DLMM `BinArray` (MeteoraAg/dlmm-sdk IDL), zero-copy: index i64, version u8, 7 bytes of
 * padding, lb_pair, then 70 bins of 144 bytes (amount_x u64, amount_y u64, price u128, …). Array
 * `index` holds bins index × 70 … index × 70 + 69; its PDA is ["bin_array", lb_pair, index i64 LE].
 */
import { type Address, getAddressEncoder, getArrayCodec } from '@solana/kit';
import { findProgramAddressSync } from '../program-address.js';
import { METEORA_DLMM_PROGRAM } from '../programs.js';
import { field, layoutCodec, readLayoutField } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded } from './result.js';

export const BIN_ARRAY_DISCRIMINATOR: readonly number[] = [92, 142, 92, 220, 5, 148, 70, 181];
export const BINS_PER_ARRAY = 70;
export const BIN_SIZE = 144;
export const BIN_ARRAY_SIZE = 56 + BINS_PER_ARRAY * BIN_SIZE;

export interface Bin {
  readonly id: number;
  readonly amountX: bigint;
  readonly amountY: bigint;
}

export interface BinArray {
  readonly index: bigint;
  readonly pair: Address;
  readonly bins: readonly Bin[];
}

/** A bin's two amounts; its price and fee fields after them are not read. */
const BIN = layoutCodec(BIN_SIZE, null, { amountX: [0, field.u64], amountY: [8, field.u64] });

export const BIN_ARRAY_LAYOUT = layoutCodec(BIN_ARRAY_SIZE, BIN_ARRAY_DISCRIMINATOR, {
  index: [8, field.i64],
  version: [16, field.u8],
  lbPair: [24, field.address],
  bins: [56, getArrayCodec(BIN, { size: BINS_PER_ARRAY })],
});

export function decodeBinArray(data: Uint8Array): DecodeResult<BinArray> {
  const checked = checkLayout(data, BIN_ARRAY_DISCRIMINATOR, BIN_ARRAY_SIZE, 'Meteora DLMM BinArray');
  if (!checked.ok) return checked;
  // Field by field: decoding the whole 10 kB account through the codec costs several times as much.
  const index = readLayoutField(BIN_ARRAY_LAYOUT, 'index', data);
  const [binsAt] = BIN_ARRAY_LAYOUT.fields.bins;
  const first = Number(index) * BINS_PER_ARRAY;
  const bins = Array.from({ length: BINS_PER_ARRAY }, (_, i) => {
    const at = binsAt + i * BIN.fixedSize;
    const amountX = readLayoutField(BIN, 'amountX', data, at);
    return { id: first + i, amountX, amountY: readLayoutField(BIN, 'amountY', data, at) };
  });
  return decoded({ index, pair: readLayoutField(BIN_ARRAY_LAYOUT, 'lbPair', data), bins });
}

/** The index of the bin array holding bin `id` (floor division: bin −1 is in array −1). */
export const binArrayIndex = (id: number): number => Math.floor(id / BINS_PER_ARRAY);

export function findBinArray(pair: Address, index: number): Address {
  const le = new Uint8Array(8);
  new DataView(le.buffer).setBigInt64(0, BigInt(index), true);
  return findProgramAddressSync(['bin_array', getAddressEncoder().encode(pair), le], METEORA_DLMM_PROGRAM)[0];
}
