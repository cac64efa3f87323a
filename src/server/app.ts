/**
 * Assembles the HTTP application from its capabilities. This is the only place an error
 * becomes an HTTP status: everything thrown ends in `onError` and is mapped by its code.
 */
import { Hono } from 'hono';
import { reasonError, toServiceError } from '../errors.js';
import { reason } from '../reasons.js';
import type { AppEnv } from './context.js';
import { type DiscoveryDeps, registerDiscoveryRoutes } from './discovery/routes.js';
import { type FramedApp, frameRequests } from './frame.js';
import type { Logger } from './logger.js';
import { createMethodCheck } from './method-check.js';
import type { Metrics } from './metrics.js';
import { pathStartOf, requestOrigin } from './origin.js';
import type { PaidRouteDeps } from './paid-answers.js';
import { registerPaidRoutes } from './paid-routes.js';
import { reply, replyError } from './respond.js';
import { createUnpaidLane } from './unpaid-lane.js';
import { registerWatchRoutes, type WatchRouteDeps } from './watch-routes.js';

/** What a mounted handler knows of the request that reached it. */
export interface MountSite {
  /** PUBLIC_BASE_URL or the request's origin. */
  readonly origin: string;
  /** The request's id (X-Request-Id). */
  readonly requestId: string;
  /** Fields for the request's log line. */
  readonly logFields: Record<string, unknown>;
}

/**
 * A POST path answered by a handler of whole web Requests (the MCP endpoint): mounted by the
 * composition root, so the server knows no more of it than this.
 */
export interface MountedHandler {
  readonly path: string;
  answer(request: Request, site: MountSite): Promise<Response>;
}

export interface AppDeps {
  readonly log: Logger;
  readonly paid: PaidRouteDeps;
  /** Where requests, and the unpaid lane's 402s, are counted; absent = not counted. */
  readonly metrics?: Metrics;
  readonly discovery: DiscoveryDeps;
  readonly mounted?: readonly MountedHandler[];
  /** GET and DELETE /watch/{id}, when the service keeps watches. */
  readonly watches?: WatchRouteDeps;
  /** Extra routes mounted at the root (e.g. the /docs reference). */
  readonly extraRoutes?: readonly Hono[];
}

/**
 * Where a served path asked for with a trailing slash is sent: the path itself, query kept. 308
 * keeps the method and the headers (a payment header too). The Location is cut from the raw URL
 * (node-server's, ASCII and still percent-encoded), never from the decoded path, which may hold
 * characters no header can carry; only served paths redirect, so no Location leaves the site.
 */
function trailingSlashRedirect(
  url: string,
  decodedPath: string,
  allowedMethods: (path: string) => string[],
): string | null {
  const bare = decodedPath.replace(/\/+$/, '');
  if (bare === '' || allowedMethods(bare).length === 0) return null;
  const pathStart = pathStartOf(url);
  const queryStart = url.indexOf('?', pathStart);
  const end = queryStart === -1 ? url.length : queryStart;
  const rawPath = url.slice(pathStart, end).replace(/\/+$/, '');
  // Served paths never start so; a browser would read either as another host.
  if (rawPath.startsWith('//') || rawPath.startsWith('/\\')) return null;
  return rawPath + url.slice(end);
}

function mount(app: Hono<AppEnv>, handler: MountedHandler, publicBaseUrl: string | null): void {
  app.post(handler.path, (c) => {
    const frame = c.env.frame;
    frame.route = handler.path;
    const origin = requestOrigin(publicBaseUrl, c.req.url);
    return handler.answer(c.req.raw, { origin, requestId: frame.requestId, logFields: frame.logFields });
  });
}

export function buildApp(deps: AppDeps): FramedApp {
  const app = new Hono<AppEnv>();
  registerPaidRoutes(app, deps.paid);
  if (deps.watches !== undefined) registerWatchRoutes(app, deps.watches);
  for (const handler of deps.mounted ?? []) mount(app, handler, deps.paid.publicBaseUrl);
  registerDiscoveryRoutes(app, deps.discovery);
  for (const routes of deps.extraRoutes ?? []) app.route('/', routes);

  const allowedMethods = createMethodCheck(app);
  app.notFound((c) => {
    const path = c.req.path;
    if (path.length > 1 && path.endsWith('/')) {
      const location = trailingSlashRedirect(c.req.url, path, allowedMethods);
      if (location !== null) return reply(c, 308, null, { Location: location });
    }
    const allowed = allowedMethods(path);
    // A plain OPTIONS (not a CORS preflight, which the frame answers) asks what the path allows.
    if (allowed.length > 0 && c.req.method === 'OPTIONS') {
      return reply(c, 204, null, { Allow: allowed.join(', ') });
    }
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      const refused = reason('method_not_allowed', { method: c.req.method, allowed: allowed.join(' or ') });
      return replyError(c, reasonError(refused), { Allow: allowed.join(', ') });
    }
    const unknown = reason('endpoint_not_found', { method: c.req.method, path: path.slice(0, 200) });
    return replyError(c, reasonError(unknown));
  });
  app.onError((err, c) => {
    const error = toServiceError(err);
    if (error.status >= 500)
      deps.log.error({ req_id: c.env.frame.requestId, err: error.cause ?? err }, 'request failed');
    return replyError(c, error);
  });
  const lane = createUnpaidLane({
    ...deps.paid,
    log: deps.log,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  return { ...frameRequests(app, deps.log, deps.metrics), lane };
}
