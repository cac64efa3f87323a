/**
 * Assembles the HTTP application from its capabilities. This is the only place an error
 * becomes an HTTP status: everything thrown ends in `onError` and is mapped by its code.
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { ServiceError, toServiceError } from '../errors.js';
import type { AppEnv } from './context.js';
import { type DiscoveryDeps, registerDiscoveryRoutes } from './discovery/routes.js';
import type { Logger } from './logger.js';
import { corsForAgents, requestLog, urlLengthLimit } from './middleware.js';
import { type PaidRouteDeps, registerPaidRoutes } from './paid-routes.js';

export interface AppDeps {
  readonly log: Logger;
  readonly paid: PaidRouteDeps;
  readonly discovery: DiscoveryDeps;
  /** Extra routes mounted at the root (e.g. the /docs reference). */
  readonly extraRoutes?: readonly Hono[];
}

export function buildApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestLog(deps.log));
  app.use(corsForAgents());
  app.use(urlLengthLimit());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(
          new ServiceError(
            'method_not_allowed',
            `${c.req.method} is not allowed here; use ${methods.join(' or ')}`,
          ).toBody(c.get('requestId')),
          405,
          { Allow: methods.join(', ') },
        ),
    }),
  );

  registerPaidRoutes(app, deps.paid);
  registerDiscoveryRoutes(app, deps.discovery);
  for (const routes of deps.extraRoutes ?? []) app.route('/', routes);

  app.notFound((c) =>
    c.json(
      new ServiceError('not_found', `No such endpoint: ${c.req.method} ${c.req.path.slice(0, 200)}`).toBody(
        c.get('requestId'),
      ),
      404,
    ),
  );
  app.onError((err, c) => {
    const error = toServiceError(err);
    if (error.status >= 500)
      deps.log.error({ req_id: c.get('requestId'), err: error.cause ?? err }, 'request failed');
    return c.json(error.toBody(c.get('requestId')), error.status, { 'Cache-Control': 'no-store' });
  });
  return app;
}
