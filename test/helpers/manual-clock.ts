/**
 * A clock whose time moves only when the test says (the RPC client's rate limits take one):
 * its timers fire, in order, as it passes them, and each advance lets resolved promises run.
 */
import type { ShaperClock } from '../../src/solana/rate-shaper.js';

/** Lets every promise already resolved run its callbacks. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ManualClock implements ShaperClock {
  private at = 0;
  private timers: { due: number; run: () => void }[] = [];
  now = () => this.at;
  setTimer = (run: () => void, ms: number) => {
    const timer = { due: this.at + ms, run };
    this.timers.push(timer);
    return timer;
  };
  clearTimer = (timer: unknown) => {
    this.timers = this.timers.filter((t) => t !== timer);
  };
  /** Timers set and not yet fired. */
  get pending(): number {
    return this.timers.length;
  }
  /** Moves to `ms` later, firing each timer due on the way (and those they set) in order. */
  async advance(ms: number): Promise<void> {
    const end = this.at + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (next === undefined) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.at = next.due;
      next.run();
      await settle();
    }
    this.at = end;
    await settle();
  }
}
