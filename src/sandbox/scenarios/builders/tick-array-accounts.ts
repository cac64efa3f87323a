/**
 * A seeded Whirlpool's tick arrays around its current tick (the ones a trade-size quote reads),
 * written in the program's layout with the initialized ticks that fall inside each.
 */
import type { Address } from '@solana/kit';
import { whirlpoolArrays } from '../../../scans/liquidity/trade/arrays.js';
import { ORCA_WHIRLPOOL_PROGRAM } from '../../../solana/programs.js';
import type { ScenarioContext } from '../context.js';
import { encodeWhirlpoolTickArray, type TickFields } from './trade-layouts.js';

export function seedWhirlpoolTickArrays(
  context: ScenarioContext,
  pool: Address,
  tickCurrent: number,
  spacing: number,
  ticks: readonly TickFields[],
): void {
  for (const array of whirlpoolArrays(pool, tickCurrent, spacing)) {
    const inside = ticks.filter((t) => t.index >= array.first && t.index < array.first + array.span);
    const data = encodeWhirlpoolTickArray(pool, array.first, spacing, inside);
    context.chain.setAccount({
      address: array.address,
      lamports: context.chain.minimumBalanceForRentExemption(data.length),
      data,
      owner: ORCA_WHIRLPOOL_PROGRAM,
    });
  }
}

/** A position's two ticks: liquidity in at the lower, out at the upper. */
export const positionTicks = (lower: number, upper: number, liquidity: bigint): TickFields[] => [
  { index: lower, liquidityNet: liquidity, liquidityGross: liquidity },
  { index: upper, liquidityNet: -liquidity, liquidityGross: liquidity },
];

/** Ticks shared by several positions merged: nets add, grosses add. */
export function mergeTicks(ticks: readonly TickFields[]): TickFields[] {
  const byIndex = new Map<number, TickFields>();
  for (const t of ticks) {
    const had = byIndex.get(t.index);
    byIndex.set(
      t.index,
      had
        ? {
            index: t.index,
            liquidityNet: had.liquidityNet + t.liquidityNet,
            liquidityGross: had.liquidityGross + t.liquidityGross,
          }
        : t,
    );
  }
  return [...byIndex.values()];
}
