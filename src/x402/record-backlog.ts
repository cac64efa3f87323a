/**
 * Records of finished sales that the store could not take (it was down when the payment
 * settled). The result was delivered regardless; the record is written as soon as the store
 * answers again, so the payer can fetch it again and the payment is known as sold.
 * A process that dies with records here loses nothing: the result was kept before settling
 * (markSending), so its claim turns pending and the chain decides.
 */
import type { ClaimRecord, PaymentStore } from './payment-store.js';

/** Where a record that still cannot be written is reported (the core's log). */
interface BacklogLog {
  warn(fields: object, message: string): void;
}

interface Unwritten {
  readonly key: string;
  readonly holder: string;
  readonly record: ClaimRecord;
}

export interface RecordBacklog {
  add(key: string, holder: string, record: ClaimRecord): void;
  /** Tries each waiting record once; resolves to how many still wait. */
  retry(): Promise<number>;
  /** Records still waiting for the store. */
  size(): number;
  /**
   * Tries again every retryMs until none wait or `untilMs` (performance.now()) has passed, then
   * stops its timers. Without `untilMs`, one last try.
   */
  close(untilMs?: number): Promise<void>;
}

export function createRecordBacklog(
  store: PaymentStore,
  options: { retryMs?: number | undefined; log?: BacklogLog | undefined } = {},
): RecordBacklog {
  const retryMs = options.retryMs ?? 1_000;
  let waiting: Unwritten[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  // A retry holds its batch outside `waiting` while it writes: close() waits for every one.
  const inFlight = new Set<Promise<number>>();

  const schedule = () => {
    if (timer !== null || closed || waiting.length === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void retry();
    }, retryMs);
    timer.unref();
  };
  const writeOne = async (entry: Unwritten): Promise<boolean> => {
    try {
      // False means the claim expired and was taken over: the kept result settles it there.
      await store.record(entry.key, entry.holder, entry.record);
      return true;
    } catch {
      return false;
    }
  };
  const retry = (): Promise<number> => {
    const running = retryOnce();
    inFlight.add(running);
    return running.finally(() => inFlight.delete(running));
  };
  const retryOnce = async (): Promise<number> => {
    const batch = waiting;
    waiting = [];
    const written = await Promise.all(batch.map(writeOne));
    const left = batch.filter((_, i) => !written[i]);
    waiting = [...left, ...waiting];
    if (left.length < batch.length) {
      options.log?.warn(
        { written: batch.length - left.length, waiting: waiting.length },
        'payment records written late',
      );
    }
    schedule();
    return waiting.length;
  };
  const backlog: RecordBacklog = {
    add(key, holder, record) {
      waiting.push({ key, holder, record });
      schedule();
    },
    retry,
    size: () => waiting.length,
    async close(untilMs = 0) {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await Promise.all(inFlight);
      if (waiting.length > 0) await retry();
      while (waiting.length > 0 && performance.now() + retryMs < untilMs) {
        await new Promise((r) => setTimeout(r, retryMs));
        await retry();
      }
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting.length > 0)
        options.log?.warn({ waiting: waiting.length }, 'payment records left unwritten at close');
    },
  };
  return backlog;
}
