/**
 * The tick arrays of the concentrated-liquidity pools, as a swap crosses them: Orca Whirlpool
 * `TickArray` (orca-so/whirlpools state/tick.rs: start_tick_index i32, 88 ticks of 113 bytes —
 * initialized bool, liquidity_net i128, … — then the whirlpool; PDA ["tick_array", whirlpool,
 * start index as decimal text]) and Raydium CLMM `TickArrayState` (raydium-clmm states/tick_array.rs:
 * pool_id, start_tick_index i32, 60 ticks of 168 bytes — tick i32, liquidity_net i128,
 * liquidity_gross u128, …; PDA ["tick_array", pool, start index i32 big-endian]). A tick counts when
 * it is initialized (Whirlpool's flag, CLMM's non-zero gross liquidity).
 */
import { type Address, getAddressEncoder } from '@solana/kit';
import { findProgramAddressSync } from '../program-address.js';
import { ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_CLMM_PROGRAM } from '../programs.js';
import { addressAt, checkLayout, i32At, u128At } from './pool-fields.js';
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

const TWO_127 = 2n ** 127n;
export const i128At = (data: Uint8Array, offset: number): bigint => {
  const u = u128At(data, offset);
  return u >= TWO_127 ? u - 2n ** 128n : u;
};

export function decodeWhirlpoolTickArray(data: Uint8Array, tickSpacing: number): DecodeResult<TickArray> {
  const checked = checkLayout(
    data,
    WHIRLPOOL_TICK_ARRAY_DISCRIMINATOR,
    WHIRLPOOL_TICK_ARRAY_SIZE,
    'Orca Whirlpool TickArray',
  );
  if (!checked.ok) return checked;
  const start = i32At(data, 8);
  const ticks: InitializedTick[] = [];
  for (let i = 0; i < WHIRLPOOL_TICKS_PER_ARRAY; i++) {
    const at = 12 + i * WHIRLPOOL_TICK_SIZE;
    if (data[at] === 1) ticks.push({ index: start + i * tickSpacing, liquidityNet: i128At(data, at + 1) });
  }
  return decoded({
    pool: addressAt(data, 12 + WHIRLPOOL_TICKS_PER_ARRAY * WHIRLPOOL_TICK_SIZE),
    startTickIndex: start,
    ticks,
  });
}

export function decodeClmmTickArray(data: Uint8Array, tickSpacing: number): DecodeResult<TickArray> {
  const checked = checkLayout(
    data,
    CLMM_TICK_ARRAY_DISCRIMINATOR,
    CLMM_TICK_ARRAY_SIZE,
    'Raydium CLMM TickArrayState',
  );
  if (!checked.ok) return checked;
  const start = i32At(data, 40);
  const ticks: InitializedTick[] = [];
  for (let i = 0; i < CLMM_TICKS_PER_ARRAY; i++) {
    const at = 44 + i * CLMM_TICK_SIZE;
    if (u128At(data, at + 20) === 0n) continue;
    const index = i32At(data, at);
    // A tick that is not where its slot says is bytes the program never writes.
    if (index !== start + i * tickSpacing)
      return notDecoded('malformed', `tick ${index} in slot ${i} of ${start}`);
    ticks.push({ index, liquidityNet: i128At(data, at + 4) });
  }
  return decoded({ pool: addressAt(data, 8), startTickIndex: start, ticks });
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
