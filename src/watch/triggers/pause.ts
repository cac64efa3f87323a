import { setTimeout as sleep } from 'node:timers/promises';

/** Waits `ms`, or less when `signal` aborts (then resolves too: the caller checks the signal). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).then(
    () => undefined,
    () => undefined,
  );
}
