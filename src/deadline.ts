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
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
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
