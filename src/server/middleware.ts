/** Cross-cutting request handling: request id and log line, CORS, size limits. */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { ServiceError } from '../errors.js';
import type { AppEnv } from './context.js';
import type { Logger } from './logger.js';

/** Longest request target accepted; paid paths are under 120 characters. */
export const MAX_URL_LENGTH = 2048;

/** Gives each request an id (echoed as X-Request-Id) and writes one log line when it ends. */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('logFields', {});
    await next();
    c.header('X-Request-Id', requestId);
    log.info(
      {
        req_id: requestId,
        method: c.req.method,
        route: c.req.routePath,
        path: c.req.path.length > 200 ? `${c.req.path.slice(0, 200)}…` : c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ...c.get('logFields'),
      },
      'request',
    );
  };
}

/** Browser agents may call from any origin and must be able to send and read x402 headers. */
export function corsForAgents(): MiddlewareHandler {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Accept', 'X-PAYMENT', 'PAYMENT-SIGNATURE'],
    exposeHeaders: ['X-PAYMENT-RESPONSE', 'PAYMENT-RESPONSE', 'PAYMENT-REQUIRED', 'X-Request-Id'],
    maxAge: 86_400,
  });
}

/** Refuses over-long request targets before any routing work. */
export function urlLengthLimit(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH + 64) {
      throw new ServiceError('uri_too_long', `The request URL is longer than ${MAX_URL_LENGTH} characters`);
    }
    await next();
  };
}
