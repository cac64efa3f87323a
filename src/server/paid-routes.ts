/**
 * The paid routes, generated from the catalog: the contract's GETs here, POSTs in body-routes.ts.
 * Each only says where the endpoint's input is; the paid door decides, in the money rule's order
 * (a malformed parameter is refused with 400 before the caller is ever asked to pay).
 */
import type { Hono } from 'hono';
import { GET_ENDPOINTS, type GetEndpoint, honoPath, POST_ENDPOINTS } from '../catalog.js';
import { reasonError } from '../errors.js';
import { reason } from '../reasons.js';
import { registerBodyEndpoint } from './body-routes.js';
import type { AppEnv } from './context.js';
import { answerPaid, type PaidRouteDeps } from './paid-answers.js';

function registerEndpoint(app: Hono<AppEnv>, deps: PaidRouteDeps, endpoint: GetEndpoint): void {
  const { name } = endpoint.param;
  const prefix = honoPath(endpoint.path).replace(`/:${name}`, '');
  const missing = () => {
    throw reasonError(reason('parameter_missing', { parameter: name }), { parameter: name });
  };
  app.get(prefix, missing);
  app.get(`${prefix}/`, missing);

  // Not async: an unpaid request is answered synchronously, and node-server then writes the 402
  // without a trip through the microtask queue. Only a presented payment returns a promise.
  app.get(honoPath(endpoint.path), (c) => answerPaid(c, deps, endpoint, c.req.param(name) ?? ''));
}

export function registerPaidRoutes(app: Hono<AppEnv>, deps: PaidRouteDeps): void {
  for (const endpoint of GET_ENDPOINTS) registerEndpoint(app, deps, endpoint);
  for (const endpoint of POST_ENDPOINTS) registerBodyEndpoint(app, deps, endpoint);
}
