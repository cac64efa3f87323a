/**
 * A signal that aborts after `ms` with a TimeoutError, as `AbortSignal.timeout` does, but held by
 * a timer of its own. On Node 20 a timeout signal combined through `AbortSignal.any` never fires
 * once nothing else holds it and it is garbage-collected (nodejs/node#57736): a read it bounded
 * would wait past its deadline, for ever if the other end never answers.
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  // Like AbortSignal.timeout's, the timer keeps no process alive.
  timer.unref();
  return controller.signal;
}
