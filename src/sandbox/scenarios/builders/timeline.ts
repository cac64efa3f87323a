/**
 * Scenario time. Seeding runs on a chain whose clock starts `spanSeconds` in the past; scenarios move
 * it forward to "N seconds before the end" with real warps, so transaction blockTimes spread over days
 * and weeks and the last one lands at the end of the span (which the caller maps to wall-clock now).
 */
import type { SandboxChain } from '../../chain/chain.js';

export const SECOND = 1;
export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;

export class Timeline {
  readonly startSlot: bigint;
  readonly endSlot: bigint;

  constructor(
    private readonly chain: SandboxChain,
    readonly spanSeconds: number,
  ) {
    this.startSlot = chain.slot;
    this.endSlot = this.startSlot + this.slotsFor(spanSeconds);
  }

  slotsFor(seconds: number): bigint {
    return BigInt(Math.round((seconds * 1000) / this.chain.slotMs));
  }

  /**
   * Warps to `secondsBeforeEnd` before the end of the span. Time only moves forward, so a target already
   * passed is a seeding-order bug (it would compress or overrun the schedule) and throws.
   */
  moveTo(secondsBeforeEnd: number): bigint {
    const target = this.endSlot - this.slotsFor(secondsBeforeEnd);
    const now = this.chain.slot;
    if (target < now) {
      throw new RangeError(`scenario timeline: ${secondsBeforeEnd} s before the end is already past`);
    }
    this.chain.warp(target - now);
    return this.chain.slot;
  }

  /** Moves forward by `seconds` (at least one slot), never past the end of the span. */
  advance(seconds: number): bigint {
    const slots = this.slotsFor(seconds);
    const target = this.chain.slot + (slots > 0n ? slots : 1n);
    if (target > this.endSlot) throw new RangeError('scenario timeline: advanced past the end of the span');
    this.chain.warp(target - this.chain.slot);
    return this.chain.slot;
  }

  /** Seconds left until the end of the span. */
  get secondsBeforeEnd(): number {
    return (Number(this.endSlot - this.chain.slot) * this.chain.slotMs) / 1000;
  }
}
