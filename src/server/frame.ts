/**
 * The frame around every request: a request id, CORS (headers and preflights), the URL length
 * limit, and one log line when the answer is ready.
 *
 * It wraps the Hono app's `fetch` instead of running as middleware. With no middleware, Hono
 * calls the one matched handler directly, and a handler that answers synchronously (every 402
 * offer, every discovery document) stays synchronous all the way to @hono/node-server, which
 * then writes the response at once. A middleware sends every request through Hono's async
 * compose chain: several promises and microtask hops for a response that was ready at once
 * (docs/performance.md).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Hono } from 'hono';
import { reasonError, type ServiceError, toServiceError } from '../errors.js';
import { reason } from '../reasons.js';
import type { AppEnv, RequestFrame } from './context.js';
import { type Logger, writeRequestLine } from './logger.js';
import type { Metrics } from './metrics.js';
import { pathStartOf } from './origin.js';
import { ERROR_HEADERS, errorBody, frameHeaders, frameResponse } from './respond.js';

/** Longest request target (path and query) accepted; paid paths are under 120 characters. */
export const MAX_URL_LENGTH = 2048;

/**
 * Longest Host header accepted: a DNS name (253) and a port. The Host is part of every URL the
 * service writes (the 402's resource, discovery links) when PUBLIC_BASE_URL is not set.
 */
export const MAX_HOST_LENGTH = 253 + ':65535'.length;

// POST is for /mcp, whose clients also send the MCP protocol headers, and /simulate/tx (a JSON body).
const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
const ALLOWED_HEADERS =
  'Content-Type, Accept, X-PAYMENT, PAYMENT-SIGNATURE, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': ALLOWED_METHODS,
  'Access-Control-Allow-Headers': ALLOWED_HEADERS,
  'Access-Control-Max-Age': '86400',
};
const LONGEST_LOGGED_PATH = 200;

/** Answers the request and returns true, or returns false having touched nothing. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the server calls: Hono's `fetch` and `request`, with the frame around them. */
export interface FramedApp {
  fetch(request: Request, env?: object): Response | Promise<Response>;
  /** As Hono's `app.request`: for in-process tests. */
  request(input: string, init?: RequestInit): Promise<Response>;
  /** Requests answered on node:http before Hono (see unpaid-lane.ts). */
  readonly lane?: Lane;
  /**
   * The answer to a request that never reaches the app (it could not be read as HTTP, or its
   * URL could not be built): a JSON error with the frame's headers, logged like any other.
   */
  refuse(error: ServiceError, method: string, target: string): Refusal;
}

/** A framed error answer as plain parts (Content-Length included), for any writer: a raw socket too. */
export interface Refusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A new request's frame: its id, and nothing yet to log. */
export function newFrame(): RequestFrame {
  return { requestId: randomUUID(), logFields: {}, route: null, headersApplied: false };
}

/**
 * The one log line of a request, written when its answer is ready. It never throws: a line
 * that cannot be written must not cost the caller its answer (a paid result above all).
 * `plainText`: the caller knows the route and path to be plain text (RequestLine.plainText).
 */
export function logRequest(
  log: Logger,
  frame: RequestFrame,
  method: string,
  path: string,
  status: number,
  started: number,
  plainText = false,
): void {
  try {
    writeRequestLine(log, {
      requestId: frame.requestId,
      method,
      route: frame.route,
      path: path.length > LONGEST_LOGGED_PATH ? `${path.slice(0, LONGEST_LOGGED_PATH)}…` : path,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      extra: frame.logFields,
      plainText,
    });
  } catch {
    // Logging failed (a closed destination, an unserialisable field): the answer still goes out.
  }
}

/** The path of an absolute request URL, without its query (cheaper than new URL()). */
function pathOf(url: string): string {
  const start = pathStartOf(url);
  if (start === url.length) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

function errorResponse(frame: RequestFrame, error: ServiceError): Response {
  return frameResponse(frame, error.status, errorBody(error, frame), ERROR_HEADERS);
}

/** Counts and times an answered request; never throws (as logRequest). */
function countRequest(metrics: Metrics | undefined, frame: RequestFrame, status: number, started: number) {
  if (metrics === undefined) return;
  try {
    metrics.request(frame.route, status, (performance.now() - started) / 1000);
  } catch {
    // A metric that cannot be counted must not cost the caller its answer.
  }
}

/** Answers not made by respond.ts (e.g. /docs assets) get the frame's headers here. */
function withFrameHeaders(frame: RequestFrame, res: Response): Response {
  if (frame.headersApplied) return res;
  const added = Object.entries(frameHeaders(frame));
  try {
    for (const [name, value] of added) res.headers.set(name, value);
    return res;
  } catch {
    // Immutable headers (e.g. a Response.redirect()): the same answer, rebuilt with them.
    const headers = new Headers(res.headers);
    for (const [name, value] of added) headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/** A URL or Host longer than any honest request's, refused before routing; null when within. */
function lengthRefusal(url: string): ServiceError | null {
  const hostStart = url.indexOf('//') + 2;
  const pathStart = pathStartOf(url);
  if (url.length - pathStart > MAX_URL_LENGTH) {
    return reasonError(reason('uri_too_long', { max: MAX_URL_LENGTH }));
  }
  if (pathStart - hostStart > MAX_HOST_LENGTH) {
    return reasonError(reason('host_too_long', { max: MAX_HOST_LENGTH }));
  }
  return null;
}

export function frameRequests(app: Hono<AppEnv>, log: Logger, metrics?: Metrics): FramedApp {
  function finish(frame: RequestFrame, request: Request, started: number, res: Response): Response {
    logRequest(log, frame, request.method, pathOf(request.url), res.status, started);
    countRequest(metrics, frame, res.status, started);
    return withFrameHeaders(frame, res);
  }

  /** Anything thrown past Hono's own error handler: answered as a 500 with a reason, and logged. */
  function failure(frame: RequestFrame, err: unknown): Response {
    const error = toServiceError(err);
    log.error({ req_id: frame.requestId, err: error.cause ?? err }, 'request failed outside the app');
    return errorResponse(frame, error);
  }

  function answer(request: Request, env: { frame: RequestFrame }): Response | Promise<Response> {
    const frame = env.frame;
    const tooLong = lengthRefusal(request.url);
    if (tooLong !== null) return errorResponse(frame, tooLong);
    if (request.method === 'OPTIONS' && request.headers.get('access-control-request-method') !== null) {
      return frameResponse(frame, 204, null, PREFLIGHT_HEADERS);
    }
    return app.fetch(request, env);
  }

  const fetch = (request: Request, env: object = {}): Response | Promise<Response> => {
    const started = performance.now();
    const frame = newFrame();
    // node-server passes { incoming, outgoing }; the frame rides along with them.
    const bindings = Object.assign(env, { frame });
    let res: Response | Promise<Response>;
    try {
      res = answer(request, bindings);
    } catch (err) {
      res = failure(frame, err);
    }
    if (res instanceof Promise) {
      return res.then(
        (done) => finish(frame, request, started, done),
        (err: unknown) => finish(frame, request, started, failure(frame, err)),
      );
    }
    return finish(frame, request, started, res);
  };

  function refuse(error: ServiceError, method: string, target: string): Refusal {
    const started = performance.now();
    const frame = newFrame();
    if (error.status >= 500) {
      log.error({ req_id: frame.requestId, err: error.cause ?? error }, 'request failed outside the app');
    }
    logRequest(log, frame, method, target, error.status, started);
    countRequest(metrics, frame, error.status, started);
    const body = errorBody(error, frame);
    const headers = Object.assign(frameHeaders(frame), ERROR_HEADERS);
    headers['Content-Length'] = String(Buffer.byteLength(body));
    return { status: error.status, headers, body };
  }

  return {
    fetch,
    refuse,
    request: async (input, init) => {
      const url = /^https?:\/\//.test(input) ? input : `http://localhost${input}`;
      return fetch(new Request(url, init));
    },
  };
}
