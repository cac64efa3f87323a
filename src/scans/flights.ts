/**
 * Single flight: concurrent calls with one key share one run of `work`. Values are text so
 * they can cross processes (src/state/cache/redis-flights.ts). `deadlineMs` bounds one run of `work`
 * (the scan's timeout).
 */
export interface ScanFlights {
  run(key: string, deadlineMs: number, work: () => Promise<string>): Promise<string>;
}

/** Coalesces within this process only. */
export function createLocalFlights(): ScanFlights {
  const inFlight = new Map<string, Promise<string>>();
  return {
    run(key, _deadlineMs, work) {
      const running = inFlight.get(key);
      if (running !== undefined) return running;
      const run = work().finally(() => inFlight.delete(key));
      inFlight.set(key, run);
      return run;
    },
  };
}
