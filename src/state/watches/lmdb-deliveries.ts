/**
 * The embedded state's sending side: a worker in this process takes the deliveries due (each
 * under a lease, so another process on the same STATE_DIR does not send it too), attempts them
 * and writes each outcome durably. After a restart the pending ones are simply due again.
 */
import { errorMessage } from '../../errors.js';
import { startPollWorker } from '../../watch/delivery/poll-worker.js';
import { createSender } from '../../watch/delivery/sender.js';
import type { DueDelivery, WatchDbs } from './lmdb-databases.js';
import type { WatchStateOptions } from './store.js';

type Transact = <T>(change: (at: number) => T, durable?: boolean) => Promise<T>;

/** Deliveries sent at once by one pass. */
const BATCH = 16;
/** How often ended watches past their retention are forgotten. */
const SWEEP_EVERY_MS = 3_600_000;

export function createLmdbDeliveries(dbs: WatchDbs, transact: Transact, options: WatchStateOptions) {
  const now = options.now ?? Date.now;
  const sender = createSender(options);
  const leaseMs = sender.limits.timeoutMs + 5_000;
  let lastSweep = now();

  const sendOne = async (due: DueDelivery): Promise<void> => {
    const result = await sender.send(due, due.watch);
    await transact(() => dbs.finish(due.body, result), true);
  };
  const pass = async (): Promise<boolean> => {
    if (now() - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = now();
      await transact((at) => dbs.sweep(at));
    }
    const { taken, dropped } = await transact((at) => dbs.takeDue(at, leaseMs, BATCH));
    for (const { webhookId, watchId, unreadable } of dropped) {
      options.log?.warn({ webhookId, watchId, err: unreadable }, 'watch delivery record unreadable: dropped');
    }
    await Promise.all(taken.map(sendOne));
    return taken.length === BATCH;
  };
  return startPollWorker(pass, options.pollMs ?? 1_000, (e) =>
    options.log?.warn({ err: errorMessage(e) }, 'watch delivery pass failed; retrying at the next poll'),
  );
}
