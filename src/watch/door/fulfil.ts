/**
 * The watch a settled POST /watch payment bought, created as its answer is handed over (see
 * produce.ts for why only then). Run for a fresh sale and for every replay: the id is the
 * answer's, so a watch already kept (active, cancelled or expired) is left as it is.
 */
import type { Fulfil } from '../../door/paid-door.js';
import { ServiceError } from '../../errors.js';
import type { WatchState } from '../model.js';
import { watchOfAnswer } from './answer.js';

const NOT_STARTED = (why: string) =>
  new ServiceError(
    'service_unavailable',
    `Your payment settled, but the watch could not be started yet (${why}). Send the same request with the same payment again: it gives this watch, with the same id, without paying twice.`,
    { reason: 'watch_not_started' },
  );

/** `created` is told of each watch this creates (the triggers follow it at once). */
export function createWatchFulfil(state: WatchState, created: () => void = () => {}): Fulfil {
  return async (body) => {
    const watch = watchOfAnswer(body);
    try {
      if ((await state.get(watch.id)) !== null) return null;
      const kept = await state.create(watch);
      if (typeof kept === 'string') return NOT_STARTED(kept.replace('_', ' '));
      created();
      return null;
    } catch (e) {
      return new ServiceError(
        'service_unavailable',
        NOT_STARTED('the watch store is unavailable').message,
        {
          reason: 'watch_not_started',
        },
        { cause: e },
      );
    }
  };
}
