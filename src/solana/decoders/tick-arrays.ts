/**
 * The tick arrays of the concentrated-liquidity pools, as a swap crosses them: Orca Whirlpool
 * `TickArray` (orca-so/whirlpools state/tick.rs: start_tick_index i32, 88 ticks of 113 bytes —
 * initialized bool, liquidity_net i128, … — then the whirlpool; PDA ["tick_array", whirlpool,
 * start index as decimal text]) and Raydium CLMM `TickArrayState` (raydium-clmm states/tick_array.rs:
 * pool_id, start_tick_index i32, 60 ticks of 168 bytes — tick i32, liquidity_net i128,
 * liquidity_gross u128, …; PDA ["tick_array", pool, start index i32 big-endian]). A tick counts when
 * it is initialized (Whirlpool's flag, CLMM's non-zero gross liquidity).
 */
import { type Address, getAddressEncoder, getArrayCodec } from '@solana/kit';
import { findProgramAddressSync } from '../program-address.js';
import { ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_CLMM_PROGRAM } from '../programs.js';
import { field, layoutCodec, readLayoutField } from './layout.js';
import { checkLayout } from './pool-fields.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

export const WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR: readonly number[] = [69, 97, 189, 190, 110, 7, 66, 187];
export const CLMM_TICK_ARRAY_DISCRIMINATOR: readonly number[] = [192, 155, 85, 205, 49, 249, 129, 42];
export const WHIRLPOOL_TICKS_PER_ARRAY = 88;
export const CLMM_TICKS_PER_ARRAY = 60;
export const WHIRLPOOL_TICK_SIZE = 113;
export const CLMM_TICK_SIZE = 168;
export const WHIRLPOOL_TICK_ARRAY_SIZE = 12 + WHIRLPOOL_TICKS_PER_ARRAY * WHIRLPOOL_TICK_SIZE + 32;
export const CLMM_TICK_ARRAY_SIZE = 10_240;

export interface InitializedTick {
  readonly index: number;
  /** Liquidity added when the price crosses this tick upwards (removed downwards). */
  readonly liquidityNet: bigint;
}

export interface TickArray {
  readonly pool: Address;
  readonly startTickIndex: number;
  readonly ticks: readonly InitializedTick[];
}

/** A Whirlpool tick's fields a swap reads; fee and reward growth after them are not. */
const WHIRLPOOL_TICK = layoutCodec(WHIRLPOOL_TICK_SIZE, null, {
  initialized: [0, field.bool],
  liquidityNet: [1, field.i128],
  liquidityGross: [17, field.u128],
});

export const WHIRLPOOL_TICK_ARRAY_LAYOUT = layoutCodec(
  WHIRLPOOL_TICK_ARRAY_SIZE,
  WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR,
  {
    startTickIndex: [8, field.i32],
    ticks: [12, getArrayCodec(WHIRLPOOL_TICK, { size: WHIRLPOOL_TICKS_PER_ARRAY })],
    whirlpool: [12 + WHIRLPOOL_TICKS_PER_ARRAY * WHIRLPOOL_TICK_SIZE, field.address],
  },
);

const CLMM_TICK = layoutCodec(CLMM_TICK_SIZE, null, {
  tick: [0, field.i32],
  liquidityNet: [4, field.i128],
  liquidityGross: [20, field.u128],
});

export const CLMM_TICK_ARRAY_LAYOUT = layoutCodec(CLMM_TICK_ARRAY_SIZE, CLMM_TICK_ARRAY_DISCRIMINATOR, {
  poolId: [8, field.address],
  startTickIndex: [40, field.i32],
  ticks: [44, getArrayCodec(CLMM_TICK, { size: CLMM_TICKS_PER_ARRAY })],
  initializedTickArrayCount: [44 + CLMM_TICKS_PER_ARRAY * CLMM_TICK_SIZE, field.u8],
});

export function decodeWhirlpoolTickArray(data: Uint8Array, tickSpacing: number): DecodeResult<TickArray> {
  const checked = checkLayout(
    data,
    WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR,
    WHIRLPOOL_TICK_ARRAY_SIZE,
    'Orca Whirlpool TickArray',
  );
  if (!checked.ok) return checked;
  const array = WHIRLPOOL_TICK_ARRAY_LAYOUT;
  const start = readLayoutField(array, 'startTickIndex', data);
  const ticks: InitializedTick[] = [];
  for (const [i, at] of slotOffsets(array.fields.ticks[0], WHIRLPOOL_TICK, WHIRLPOOL_TICKS_PER_ARRAY)) {
    if (!readLayoutField(WHIRLPOOL_TICK, 'initialized', data, at)) continue;
    ticks.push({
      index: start + i * tickSpacing,
      liquidityNet: readLayoutField(WHIRLPOOL_TICK, 'liquidityNet', data, at),
    });
  }
  return decoded({ pool: readLayoutField(array, 'whirlpool', data), startTickIndex: start, ticks });
}

/**
 * Each slot's index and offset: an array's slots are read one field at a time, since decoding all
 * of a 10 kB account through the codec costs ten times as much and most slots are empty.
 */
function slotOffsets(first: number, slot: { fixedSize: number }, count: number): [number, number][] {
  return Array.from({ length: count }, (_, i) => [i, first + i * slot.fixedSize]);
}

export function decodeClmmTickArray(data: Uint8Array, tickSpacing: number): DecodeResult<TickArray> {
  const checked = checkLayout(
    data,
    CLMM_TICK_ARRAY_DISCRIMINATOR,
    CLMM_TICK_ARRAY_SIZE,
    'Raydium CLMM TickArrayState',
  );
  if (!checked.ok) return checked;
  const array = CLMM_TICK_ARRAY_LAYOUT;
  const start = readLayoutField(array, 'startTickIndex', data);
  const ticks: InitializedTick[] = [];
  for (const [i, at] of slotOffsets(array.fields.ticks[0], CLMM_TICK, CLMM_TICKS_PER_ARRAY)) {
    if (readLayoutField(CLMM_TICK, 'liquidityGross', data, at) === 0n) continue;
    const index = readLayoutField(CLMM_TICK, 'tick', data, at);
    // A tick that is not where its slot says is bytes the program never writes.
    if (index !== start + i * tickSpacing)
      return notDecoded('malformed', `tick ${index} in slot ${i} of ${start}`);
    ticks.push({ index, liquidityNet: readLayoutField(CLMM_TICK, 'liquidityNet', data, at) });
  }
  return decoded({ pool: readLayoutField(array, 'poolId', data), startTickIndex: start, ticks });
}

/** The first tick of the array holding `tick`: arrays start at multiples of ticksPerArray × spacing. */
export function tickArrayStart(tick: number, tickSpacing: number, ticksPerArray: number): number {
  const span = tickSpacing * ticksPerArray;
  return Math.floor(tick / span) * span;
}

const encoder = getAddressEncoder();

export function findWhirlpoolTickArray(pool: Address, start: number): Address {
  return findProgramAddressSync(
    ['tick_array', encoder.encode(pool), String(start)],
    ORCA_WHIRLPOOL_PROGRAM,
  )[0];
}

export function findClmmTickArray(pool: Address, start: number): Address {
  const be = new Uint8Array(4);
  new DataView(be.buffer).setInt32(0, start, false);
  return findProgramAddressSync(['tick_array', encoder.encode(pool), be], RAYDIUM_CLMM_PROGRAM)[0];
}
