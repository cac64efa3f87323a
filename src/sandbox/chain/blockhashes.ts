import { blockHeightOf } from './clock.js';

/** Agave's MAX_PROCESSING_AGE: a blockhash is usable for 150 slots after the slot that produced it. */
export const MAX_PROCESSING_AGE = 150n;

export interface RecentBlockhash {
  blockhash: string;
  slot: bigint;
}

/**
 * The window of recent blockhashes, one per slot. LiteSVM itself only accepts its single latest hash,
 * which breaks every client that fetches a blockhash and sends a moment later, so the chain checks
 * transactions against this window instead and turns LiteSVM's own check off.
 */
export class BlockhashWindow {
  private entries: RecentBlockhash[] = [];
  private readonly bySlotHash = new Map<string, bigint>();

  constructor(initial: readonly RecentBlockhash[]) {
    for (const entry of initial) this.push(entry);
  }

  push(entry: RecentBlockhash): void {
    this.entries.push(entry);
    this.bySlotHash.set(entry.blockhash, entry.slot);
  }

  /** Drops hashes that are too old at `currentSlot`. */
  prune(currentSlot: bigint): void {
    let drop = 0;
    while (drop < this.entries.length - 1 && this.entries[drop]!.slot < currentSlot - MAX_PROCESSING_AGE)
      drop++;
    for (const old of this.entries.splice(0, drop)) this.bySlotHash.delete(old.blockhash);
  }

  latest(): RecentBlockhash {
    const last = this.entries.at(-1);
    if (!last) throw new Error('blockhash window is empty');
    return last;
  }

  isValid(blockhash: string, currentSlot: bigint): boolean {
    const slot = this.bySlotHash.get(blockhash);
    return slot !== undefined && slot >= currentSlot - MAX_PROCESSING_AGE;
  }

  /** Mainnet's `lastValidBlockHeight` for a hash produced at `slot`. */
  static lastValidBlockHeight(slot: bigint): bigint {
    return blockHeightOf(slot) + MAX_PROCESSING_AGE;
  }

  toJSON(): RecentBlockhash[] {
    return [...this.entries];
  }
}
