/**
 * The frame around every request, as one middleware: request id, CORS, URL limit, and one
 * log line at the end. One layer rather than four because every async layer costs on the
 * cheap paths (402 offers, discovery documents) that carry most of the traffic.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../errors.js';
import type { AppEnv } from './context.js';
import type { Logger } from './logger.js';
import { reply } from './respond.js';

/** Longest request target accepted; paid paths are under 120 characters. */
export const MAX_URL_LENGTH = 2048;

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
const ALLOWED_HEADERS = 'Content-Type, Accept, X-PAYMENT, PAYMENT-SIGNATURE';
const EXPOSED_HEADERS = 'X-PAYMENT-RESPONSE, PAYMENT-RESPONSE, PAYMENT-REQUIRED, X-Request-Id';

/**
 * Browser agents may call from any origin and must be able to send and read the x402
 * headers: every response carries Allow-Origin and Expose-Headers, and preflights are
 * answered here. Hand-rolled rather than hono/cors because that middleware edits headers
 * after the handler ran, which materialises a full Response (measured: 52k → 21k req/s).
 */
function isPreflight(method: string, requestedMethod: string | undefined): boolean {
  return method === 'OPTIONS' && requestedMethod !== undefined;
}

export function requestFrame(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('logFields', {});
    c.set('baseHeaders', {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': EXPOSED_HEADERS,
      'X-Request-Id': requestId,
    });
    try {
      if (c.req.url.length > MAX_URL_LENGTH + 64) {
        throw new ServiceError('uri_too_long', `The request URL is longer than ${MAX_URL_LENGTH} characters`);
      }
      if (isPreflight(c.req.method, c.req.header('access-control-request-method'))) {
        c.res = reply(c, 204, null, {
          'Access-Control-Allow-Methods': ALLOWED_METHODS,
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': '86400',
        });
        return;
      }
      await next();
    } finally {
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
    }
  };
}
