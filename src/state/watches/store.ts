/**
 * What opening a watch state takes. The interface (`WatchState`) is the watch feature's own
 * (src/watch/model.ts); its backends are here (memory.ts, lmdb.ts in STATE_DIR, redis.ts on
 * REDIS_URL), held to one contract (test/helpers/watch-state-contract.ts). A kept change is delivered by
 * the state itself, at least once, signed, with the sender of src/watch/delivery/.
 */
import type { SenderOptions } from '../../watch/delivery/sender.js';
import type { WatchCaps } from '../../watch/rules.js';

/**
 * What opening any WatchState takes; the caps are the door's `MAX_WATCHES` settings, applied by
 * every backend through `refusalAt` (src/watch/rules.ts).
 */
export interface WatchStateOptions extends SenderOptions, WatchCaps {
  /** Deliveries kept per watch for its log (pending ones are always kept). Default 50. */
  readonly keepDeliveries?: number;
  /** How often the embedded worker looks for due deliveries when nothing wakes it. Default 1 s. */
  readonly pollMs?: number;
  readonly log?: { warn(fields: object, message: string): void };
}
