/**
 * The embedded state's delivery worker: a loop in this process that takes the deliveries due
 * now and sends them, woken at once when a change is recorded and otherwise every `pollMs`.
 * One pass at a time; its timer does not keep the process alive; close() waits for the pass
 * in progress (each attempt is bounded by the POST timeout).
 */
export interface PollWorker {
  /** Run a pass as soon as possible (a delivery was just queued). */
  wake(): void;
  close(): Promise<void>;
}

/** `pass` sends what is due and says whether more may be due at once (a full batch). */
export function startPollWorker(
  pass: () => Promise<boolean>,
  pollMs: number,
  onError: (e: unknown) => void,
): PollWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  function run(): void {
    if (closed) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    again = false;
    running = pass()
      .catch((e: unknown) => {
        onError(e);
        return false;
      })
      .then((more) => {
        running = undefined;
        schedule(more || again ? 0 : pollMs);
      });
  }
  schedule(0);
  return {
    wake: () => schedule(0),
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
