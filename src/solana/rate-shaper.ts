/**
 * Shapes the requests to one RPC endpoint under the rate its provider allows, so that they are
 * queued here instead of being answered HTTP 429 there: a token bucket, and a queue per priority,
 * a paid scan's requests granted before any watch re-scan's. Within a priority, the scan that
 * started first goes first (`inScanOrder`): a burst of scans then finishes one after another
 * instead of all at the end, and a scan's bounded optional reads are not starved by newer scans.
 * Requests outside any scan (a settlement lookup on the money path, a probe) go before all scans.
 *
 * Hand-written, small: p-queue's interval cap is a fixed window (up to twice the rate across a
 * window's edge, which a provider's token bucket refuses), and limiter has no priorities.
 * The clock is injected, so tests move time themselves.
 */

import { AsyncLocalStorage } from 'node:async_hooks';

/** Whose request waits: a paid scan's (first) or a watch re-scan's. */
export const RPC_PRIORITIES = ['paid', 'watch'] as const;
export type RpcPriority = (typeof RPC_PRIORITIES)[number];

export interface ShaperClock {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export const SYSTEM_CLOCK: ShaperClock = {
  now: () => performance.now(),
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** `ratePerSecond` tokens a second, at most `burst` kept. Starts full. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number,
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1))
      throw new Error('a token bucket needs a rate above 0 and a burst of 1 or more');
    this.tokens = burst;
    this.last = now();
  }

  private refill(): void {
    const at = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((at - this.last) * this.ratePerSecond) / 1000);
    this.last = at;
  }

  /** Takes `count` tokens if there are as many; none otherwise. */
  take(count = 1): boolean {
    this.refill();
    // A token refilled in several steps may fall a rounding error short of whole.
    if (this.tokens < count - 1e-9) return false;
    this.tokens -= count;
    return true;
  }

  /** Milliseconds until a token is there (0: now). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 - 1e-9 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSecond);
  }
}

/**
 * What an operator states (the provider's requests a second) as the bucket the client keeps:
 * 90 % of the rate, bursts of a tenth of it, so that no second ever holds more than the stated
 * rate (whether the provider counts by token bucket or by sliding window) and a provider's
 * token bucket keeps some slack for requests bunched on the way.
 */
export function shapedBucket(statedPerSecond: number, now: () => number): TokenBucket {
  return new TokenBucket(statedPerSecond * 0.9, Math.max(1, Math.floor(statedPerSecond / 10)), now);
}

const scanOrder = new AsyncLocalStorage<number>();
let scansStarted = 0;

/** Runs a scan: the requests it sends wait behind those of scans started before it (a scan within a scan keeps its place). */
export function inScanOrder<T>(scan: () => Promise<T>): Promise<T> {
  if (scanOrder.getStore() !== undefined) return scan();
  scansStarted += 1;
  return scanOrder.run(scansStarted, scan);
}

/** The place of the scan sending a request now; 0 outside any scan, ahead of every scan. */
export function currentScanOrder(): number {
  return scanOrder.getStore() ?? 0;
}

/** Told of every change in a queue's length and of every grant, with how long it waited. */
export interface ShaperEvents {
  queued?(priority: RpcPriority, depth: number): void;
  granted?(priority: RpcPriority, waitedMs: number): void;
}

interface Waiter {
  readonly since: number;
  /** Its scan's place (currentScanOrder). */
  readonly order: number;
  resolve(): void;
  dispose(): void;
}

export class RateShaper {
  private readonly queues: Record<RpcPriority, Waiter[]> = { paid: [], watch: [] };
  private timer: unknown = null;

  constructor(
    private readonly bucket: TokenBucket,
    private readonly clock: ShaperClock = SYSTEM_CLOCK,
    private readonly events: ShaperEvents = {},
  ) {}

  /** Requests waiting with `priority`. */
  waiting(priority: RpcPriority): number {
    return this.queues[priority].length;
  }

  /**
   * Resolves when the request may be sent: after every request of a higher priority, and of its
   * own priority from a scan placed before it (`order`, lower first; then first come). Rejects
   * with the signal's reason if it aborts first (the request leaves the queue, using no token).
   */
  acquire(priority: RpcPriority, signal?: AbortSignal, order = 0): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.empty() && this.bucket.take()) {
      this.events.granted?.(priority, 0);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues[priority];
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        this.events.queued?.(priority, queue.length);
        if (this.empty()) this.stopTimer();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        since: this.clock.now(),
        order,
        resolve,
        dispose: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const behind = queue.findIndex((w) => w.order > order);
      queue.splice(behind < 0 ? queue.length : behind, 0, waiter);
      this.events.queued?.(priority, queue.length);
      this.schedule();
    });
  }

  private empty(): boolean {
    return RPC_PRIORITIES.every((p) => this.queues[p].length === 0);
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      this.drain();
    }, this.bucket.waitMs());
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  /** Grants a token to each waiter in priority order while there are tokens; then waits for the next. */
  private drain(): void {
    for (;;) {
      const priority = RPC_PRIORITIES.find((p) => this.queues[p].length > 0);
      if (priority === undefined) return;
      if (!this.bucket.take()) {
        this.schedule();
        return;
      }
      const queue = this.queues[priority];
      const waiter = queue.shift()!;
      waiter.dispose();
      this.events.queued?.(priority, queue.length);
      this.events.granted?.(priority, this.clock.now() - waiter.since);
      waiter.resolve();
    }
  }
}
