/**
 * Slot arithmetic for the sandbox: a wall-clock component (one slot per `slotMs`, like a validator)
 * plus manual warps. Timestamps advance `slotMs` per slot from an anchor, so warping 1000 slots moves
 * the chain's clock 400 s forward even when the wall clock did not move.
 */
export interface SlotClockState {
  /** Slot at the anchor. */
  anchorSlot: bigint;
  /** Unix milliseconds of the anchor slot. */
  anchorUnixMs: number;
  /** Slots added by warps since the anchor. */
  warped: bigint;
}

/** Mainnet's epoch length without warmup. */
export const SLOTS_PER_EPOCH = 432_000n;

/**
 * Mainnet's block height lags its slot because of skipped slots; kit's block-height-exceedance check only
 * needs `slot - blockHeight` to stay constant, so a fixed lag keeps both plausible and consistent.
 */
export const SKIPPED_SLOTS = 21_337_000n;

export class SlotClock {
  private state: SlotClockState;

  constructor(
    startSlot: bigint,
    readonly slotMs: number,
    private readonly followWallClock: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.state = { anchorSlot: startSlot, anchorUnixMs: now(), warped: 0n };
  }

  /** The slot the chain should be at now. Never smaller than a previous answer. */
  targetSlot(): bigint {
    const { anchorSlot, anchorUnixMs, warped } = this.state;
    const elapsed = this.followWallClock
      ? BigInt(Math.max(0, Math.floor((this.now() - anchorUnixMs) / this.slotMs)))
      : 0n;
    return anchorSlot + warped + elapsed;
  }

  warp(slots: bigint): void {
    if (slots < 0n) throw new RangeError('cannot warp backwards');
    this.state.warped += slots;
  }

  /** Unix seconds for a slot: the anchor time plus `slotMs` per slot since. */
  unixTimestamp(slot: bigint): number {
    const { anchorSlot, anchorUnixMs } = this.state;
    return Math.floor((anchorUnixMs + Number(slot - anchorSlot) * this.slotMs) / 1000);
  }

  /** Re-anchor at `slot` as of now; used after restoring a snapshot so the chain resumes where it was saved. */
  resumeAt(slot: bigint): void {
    this.state = { anchorSlot: slot, anchorUnixMs: this.now(), warped: 0n };
  }
}

export function epochOf(slot: bigint): { epoch: bigint; slotIndex: bigint } {
  return { epoch: slot / SLOTS_PER_EPOCH, slotIndex: slot % SLOTS_PER_EPOCH };
}

export function blockHeightOf(slot: bigint): bigint {
  return slot - SKIPPED_SLOTS;
}
