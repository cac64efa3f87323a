/**
 * Every response is built here from plain header objects. Hono's c.header() and multi-header
 * c.body() go through undici's Headers class, and @hono/node-server then has to convert it
 * back; a plain object lets node-server write the response directly
 * (docs/performance.md).
 */
import type { Context } from 'hono';
import { routePath } from 'hono/route';
import type { ServiceError } from '../errors.js';
import type { AppEnv, RequestFrame } from './context.js';

export type HeaderMap = Record<string, string>;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Browser agents may call from any origin and must be able to read the x402 headers, so every
 * response carries these (preflights are answered by the frame).
 */
const ALLOW_ORIGIN = '*';
const EXPOSED_HEADERS =
  'X-PAYMENT-RESPONSE, PAYMENT-RESPONSE, PAYMENT-REQUIRED, X-Signature, X-Request-Id, Retry-After';

/** The headers every response carries: CORS and the request id. */
export function frameHeaders(frame: RequestFrame): HeaderMap {
  return {
    'Access-Control-Allow-Origin': ALLOW_ORIGIN,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    'X-Request-Id': frame.requestId,
  };
}

/** A response outside any route (the frame's own answers: preflight, URL too long). */
export function frameResponse(
  frame: RequestFrame,
  status: number,
  body: string | Uint8Array | null,
  headers: HeaderMap = {},
): Response {
  frame.headersApplied = true;
  // Buffers are ArrayBuffer-backed; the cast only narrows the type for the DOM typings.
  return new Response(body as string | Uint8Array<ArrayBuffer> | null, {
    status,
    // Object.assign, not a second spread: V8 copies a second spread key by key through the
    // runtime, many times slower.
    headers: Object.assign(frameHeaders(frame), headers),
  });
}

export function reply(
  c: Context<AppEnv>,
  status: number,
  body: string | Uint8Array | null,
  headers: HeaderMap = {},
): Response {
  const frame = c.env.frame;
  frame.route = routePath(c) || null;
  return frameResponse(frame, status, body, headers);
}

export function replyJson(
  c: Context<AppEnv>,
  status: number,
  value: unknown,
  headers: HeaderMap = {},
): Response {
  return reply(c, status, JSON.stringify(value), { 'Content-Type': JSON_TYPE, ...headers });
}

export function errorBody(error: ServiceError, frame: RequestFrame): string {
  return JSON.stringify(error.toBody(frame.requestId));
}

export const ERROR_HEADERS: HeaderMap = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' };

export function replyError(c: Context<AppEnv>, error: ServiceError, headers: HeaderMap = {}): Response {
  return reply(c, error.status, errorBody(error, c.env.frame), Object.assign({}, ERROR_HEADERS, headers));
}
