/**
 * GET /watch/{id} and DELETE /watch/{id}: free, for whoever holds the id, which is the watch's
 * only credential. An unknown id and an id of a shape this service never makes get the same 404
 * after the same single lookup (only an id too long to be one is refused without it), so neither
 * the answer nor its time says whether another id exists. Cancelling gives no refund.
 */
import type { Context, Hono } from 'hono';
import { reasonError } from '../errors.js';
import { reason } from '../reasons.js';
import { VIEW_DELIVERIES, watchView } from '../watch/door/view.js';
import type { Watch, WatchState } from '../watch/model.js';
import type { AppEnv } from './context.js';
import { replyJson } from './respond.js';

export const WATCH_ID_PATH = '/watch/{id}';

/** Longer than any id this service makes: refused before the store is asked. */
const MAX_ID_LENGTH = 64;

export interface WatchRouteDeps {
  readonly state: WatchState;
  readonly now?: () => number;
}

const NO_SUCH_WATCH = () => reasonError(reason('watch_not_found'));

async function answerWatch(c: Context<AppEnv>, deps: WatchRouteDeps, watch: Watch | null) {
  if (watch === null) throw NO_SUCH_WATCH();
  const deliveries = await deps.state.deliveries(watch.id, VIEW_DELIVERIES);
  const view = watchView(watch, deliveries, (deps.now ?? Date.now)());
  return replyJson(c, 200, view, { 'Cache-Control': 'no-store' });
}

/** The id in the path, or null when it cannot be one. */
function idOf(c: Context<AppEnv>): string | null {
  const id = c.req.param('id') ?? '';
  return id.length === 0 || id.length > MAX_ID_LENGTH ? null : id;
}

export function registerWatchRoutes(app: Hono<AppEnv>, deps: WatchRouteDeps): void {
  app.get('/watch/:id', async (c) => {
    const id = idOf(c);
    return answerWatch(c, deps, id === null ? null : await deps.state.get(id));
  });
  app.delete('/watch/:id', async (c) => {
    const id = idOf(c);
    return answerWatch(c, deps, id === null ? null : await deps.state.cancel(id));
  });
}
