/**
 * The watch a settled POST /watch payment bought, created as its answer is handed over (see
 * produce.ts for why only then). Run for a fresh sale and for every replay: the id is the
 * answer's, and the store keeps a watch once, so a watch already kept (active, cancelled or
 * expired) is left as it is.
 */
import type { Fulfil } from '../../door/paid-door.js';
import { reasonError, ServiceError } from '../../errors.js';
import { reason } from '../../reasons.js';
import type { WatchState } from '../model.js';
import { watchOfAnswer } from './answer.js';

const notStarted = (why: string, cause?: unknown) =>
  reasonError(reason('watch_not_started', { why }), {}, cause);

/**
 * `followed` is told of each active watch kept (the triggers follow a new one at once). A replay
 * after the watch's end creates nothing: the answer says when it ended, and the store may have
 * forgotten it by then, so creating it again would start a watch no one paid for.
 */
export function createWatchFulfil(
  state: WatchState,
  followed: () => void = () => {},
  now: () => number = Date.now,
): Fulfil {
  return async (body) => {
    const watch = watchOfAnswer(body);
    if (watch.expiresAt <= now()) return null;
    const kept = await state
      .create(watch, { paid: true })
      .catch((e: unknown) => notStarted('the watch store is unavailable', e));
    if (kept instanceof ServiceError) return kept;
    if (typeof kept === 'string') return notStarted(kept.replace('_', ' '));
    if (kept.status === 'active') followed();
    return null;
  };
}
