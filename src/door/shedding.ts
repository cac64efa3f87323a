/**
 * Load shedding for paid calls: when too many are in flight, when the event loop lags, or while
 * the process shuts down, a paid call is refused with 503 and Retry-After before its payment is
 * decoded, claimed or verified, so the same payment stays good for a later try. Discovery and
 * 402 offers never come here: they stay up whatever the load.
 *
 * The in-flight count also lets shutdown wait for every paid call that got a slot (claimed,
 * settling, recording) before the stores close.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { reasonError, type ServiceError } from '../errors.js';
import { reason as reasonOf } from '../reasons.js';
import type { ShedReason } from './metrics.js';

export interface SheddingOptions {
  /** Paid scans in flight at most (a batch counts each of its scans); 0 = no limit. */
  readonly maxInflightPaid: number;
  /** Event-loop delay (ms) past which paid calls are refused; 0 = not watched. */
  readonly eventLoopDelayMs: number;
  readonly retryAfterSeconds: number;
  /** The current event-loop delay in ms (tests inject one); default: p99 of the last window. */
  readonly readDelayMs?: () => number;
  /** Length of the window the default reading covers. */
  readonly windowMs?: number;
}

/** A paid call's slot; `leave()` gives it back (once, whatever happens). */
export interface Slot {
  leave(): void;
}

export type Entry =
  | { readonly admitted: true; readonly slot: Slot }
  | { readonly admitted: false; readonly reason: ShedReason; readonly error: ServiceError };

export interface Shedder {
  /**
   * A slot for one paid call running `scans` scans (a batch its distinct subjects), or the 503 it
   * gets instead. A call heavier than the whole limit is admitted only when nothing else runs.
   */
  enter(scans?: number): Entry;
  readonly retryAfterSeconds: number;
  inflight(): number;
  /** The event-loop delay the shedder acts on, in ms. */
  delayMs(): number;
  /** Refuses every new paid call from now on; resolves once those in flight have left. */
  drain(): Promise<void>;
  /** Stops watching the event loop. */
  close(): void;
}

/** The 503 for `reason`: the payment was not looked at, so it is still good. */
export function shedError(reason: ShedReason, retryAfterSeconds: number): ServiceError {
  // Each shed reason is a code of its own in the reasons table, named as the body's `reason`.
  return reasonError(reasonOf(reason, { seconds: retryAfterSeconds }));
}

/** p99 event-loop delay over windows of `windowMs`, read from node's histogram. */
function eventLoopDelayReader(windowMs: number): { read: () => number; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = 0;
  const timer = setInterval(() => {
    last = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
    histogram.reset();
  }, windowMs);
  timer.unref();
  return {
    read: () => last,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export function createShedder(options: SheddingOptions): Shedder {
  const watched =
    options.readDelayMs === undefined && options.eventLoopDelayMs > 0
      ? eventLoopDelayReader(options.windowMs ?? 1_000)
      : null;
  const readDelay = options.readDelayMs ?? watched?.read ?? (() => 0);
  const errors = new Map<ShedReason, ServiceError>();
  const refuse = (reason: ShedReason): Entry => {
    let error = errors.get(reason);
    if (error === undefined) {
      error = shedError(reason, options.retryAfterSeconds);
      errors.set(reason, error);
    }
    return { admitted: false, reason, error };
  };
  let inflight = 0;
  let draining: Promise<void> | null = null;
  let drained = () => {};
  const leave = (scans: number) => {
    inflight -= scans;
    if (inflight === 0) drained();
  };
  const full = (scans: number) =>
    options.maxInflightPaid > 0 && inflight > 0 && inflight + scans > options.maxInflightPaid;

  return {
    retryAfterSeconds: options.retryAfterSeconds,
    enter(scans = 1) {
      if (draining) return refuse('shutting_down');
      if (full(scans)) return refuse('inflight');
      if (options.eventLoopDelayMs > 0 && readDelay() > options.eventLoopDelayMs) return refuse('event_loop');
      inflight += scans;
      let left = false;
      return {
        admitted: true,
        slot: {
          leave: () => {
            if (left) return;
            left = true;
            leave(scans);
          },
        },
      };
    },
    inflight: () => inflight,
    delayMs: () => readDelay(),
    drain() {
      draining ??= new Promise<void>((resolve) => {
        drained = resolve;
        if (inflight === 0) resolve();
      });
      return draining;
    },
    close: () => watched?.stop(),
  };
}
