/**
 * Where watches and their deliveries are kept: the interface every backend implements
 * (lmdb.ts in STATE_DIR, redis.ts on REDIS_URL), held to one contract
 * (test/helpers/watch-state-contract.ts). A kept change is delivered by the state itself, at
 * least once, signed, with the sender of src/watch/delivery/.
 */
import type { SenderOptions } from '../../watch/delivery/sender.js';
import type { AlertPayload, DeliveryRecord, Watch, WatchRefusal } from '../../watch/model.js';

/** What opening either WatchState takes; the caps are the door's `MAX_WATCHES` settings. */
export interface WatchStateOptions extends SenderOptions {
  /** Active watches at most, over the whole service. */
  readonly maxWatches: number;
  /** Active watches at most on one subject. */
  readonly maxWatchesPerSubject: number;
  /** Deliveries kept per watch for its log (pending ones are always kept). Default 50. */
  readonly keepDeliveries?: number;
  /** How often the embedded worker looks for due deliveries when nothing wakes it. Default 1 s. */
  readonly pollMs?: number;
  readonly log?: { warn(fields: object, message: string): void };
}

export interface WatchState {
  /** Whether a watch on `subject` would be taken now: null, or why not. */
  room(subject: string): Promise<WatchRefusal | null>;
  /**
   * Keeps a new watch, once: a watch already kept under its id is given back as it is now, never
   * overwritten (a replayed payment must not revive a cancelled watch or rewind its version).
   * Refuses a new one when the caps were reached since `room` said yes — unless it is `paid`:
   * the caps are admission, asked before payment; a watch whose payment settled is kept even
   * if others filled the room during its settle call, as a paid result is never lost.
   */
  create(watch: Watch, options?: { readonly paid?: boolean }): Promise<Watch | WatchRefusal>;
  get(id: string): Promise<Watch | null>;
  /** Cancels an active watch (no refund); null when there is no such watch. */
  cancel(id: string): Promise<Watch | null>;
  /** Every active, unexpired watch (what the triggers follow). */
  active(): Promise<readonly Watch[]>;
  /**
   * Records `after` as the watch's verdict and queues its alert, if the watch is still active and
   * still at `version`: of two instances that saw the same change, one records it, the other gets
   * null. The alert is then delivered at least once, signed, whatever happens to this process.
   */
  recordChange(id: string, version: number, payload: AlertPayload): Promise<DeliveryRecord | null>;
  /** The watch's deliveries, newest first. */
  deliveries(id: string, limit: number): Promise<readonly DeliveryRecord[]>;
  /**
   * Shared states only: calls `listener` when a watch may have been created or cancelled through
   * another instance (the triggers then take the active watches again); returns how to stop.
   */
  watchesChanged?(listener: () => void): () => void;
  /** Whether the state can be used now (for /health); throws with the reason when not. */
  check(): Promise<void>;
  close(): Promise<void>;
}
