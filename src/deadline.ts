/** A deadline's signal and the means to let its timer go once the work it bounds has settled. */
export interface Deadline {
  /** Aborts after the deadline's `ms` with a TimeoutError, unless cleared first. */
  readonly signal: AbortSignal;
  /**
   * Stops the timer: the signal will not abort for the deadline. Without it, the timer (and what
   * listens on the signal) stays in the process's timer list until it is due, though the read it
   * bounded answered long before; a busy service would hold thousands of them.
   */
  clear(): void;
  /** Ends the deadline now: the signal aborts (reads still in flight for it stop) and the timer goes. */
  end(): void;
}

/**
 * A deadline that aborts after `ms` with a TimeoutError, as `AbortSignal.timeout` does, but held by
 * a timer of its own. On Node 20 a timeout signal combined through `AbortSignal.any` never fires
 * once nothing else holds it and it is garbage-collected (nodejs/node#57736): a read it bounded
 * would wait past its deadline, for ever if the other end never answers.
 */
export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  // Like AbortSignal.timeout's, the timer keeps no process alive.
  timer.unref();
  const clear = () => clearTimeout(timer);
  const end = () => {
    clear();
    controller.abort(new DOMException('The work this deadline bounded has ended', 'AbortError'));
  };
  return { signal: controller.signal, clear, end };
}

/** A deadline's signal alone, for work that outlives any one place that could clear it. */
export function timeoutSignal(ms: number): AbortSignal {
  return deadline(ms).signal;
}

/** `work` bounded by a deadline of `ms`, whose timer is cleared as soon as `work` settles. */
export async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, clear } = deadline(ms);
  try {
    return await work(signal);
  } finally {
    clear();
  }
}

/** A time budget whose clock may be stopped while the reads it bounds wait in a queue. */
interface Budget {
  pause(): void;
  resume(): void;
}

/** The budgets each signal carries (a signal made of others carries theirs). */
const budgetsOf = new WeakMap<AbortSignal, readonly Budget[]>();

/**
 * Like `timeoutSignal`, but its clock stops while any read it bounds waits in a queue (`whileQueued`:
 * behind an RPC rate limit, in a batch's step) instead of being sent: `ms` is then the time its
 * reads had, not the time they waited for their turn. A queue that never moves still meets the
 * scan's own deadline, which never stops.
 */
export function queueAwareTimeout(ms: number): AbortSignal {
  const controller = new AbortController();
  let left = ms;
  let since = performance.now();
  let queued = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expire = () =>
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  const start = () => {
    since = performance.now();
    timer = setTimeout(expire, Math.max(0, left));
    timer.unref();
  };
  const budget: Budget = {
    pause() {
      if (queued++ > 0 || controller.signal.aborted) return;
      clearTimeout(timer);
      left -= performance.now() - since;
    },
    resume() {
      if (--queued > 0 || controller.signal.aborted) return;
      start();
    },
  };
  start();
  budgetsOf.set(controller.signal, [budget]);
  return controller.signal;
}

/** `AbortSignal.any(signals)`, carrying the budgets of those that have one (a lone signal is itself). */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  if (signals.length === 1) return signals[0]!;
  const combined = AbortSignal.any([...signals]);
  carryBudgets(combined, signals);
  return combined;
}

/** Makes `target` carry the budgets of `sources` too: a read sent for several callers stops all their clocks. */
export function carryBudgets(target: AbortSignal, sources: readonly (AbortSignal | undefined)[]): void {
  const carried = new Set(budgetsOf.get(target) ?? []);
  for (const source of sources) for (const b of (source && budgetsOf.get(source)) ?? []) carried.add(b);
  if (carried.size > 0) budgetsOf.set(target, [...carried]);
}

/** Waits for `wait`, the clocks of the budgets `signal` carries stopped meanwhile (a read waiting for its turn). */
export async function whileQueued<T>(signal: AbortSignal | undefined, wait: () => Promise<T>): Promise<T> {
  const held = (signal && budgetsOf.get(signal)) ?? [];
  for (const budget of held) budget.pause();
  try {
    return await wait();
  } finally {
    for (const budget of held) budget.resume();
  }
}
