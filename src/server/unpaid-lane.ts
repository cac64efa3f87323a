/**
 * The unpaid lane: a GET of a paid endpoint with a well-formed parameter and no payment — the
 * first request of every paid exchange, and most of the traffic — is answered with its 402
 * offer directly on node:http, before the request is wrapped for Hono.
 *
 * Why: the offer is ready-made bytes (door/offers.ts), so such a request costs little more than
 * node:http itself, and the wrapping it skips — @hono/node-server's
 * Request/Response objects, Hono's routing and context — was a measurable share of the rest
 * (docs/performance.md). It asks the paid door the same two things the
 * door's knock asks first (its admission, its kept offer) and answers as the Hono route does
 * (addOfferHeaders, the frame's headers and log line); a test compares the two byte for byte.
 *
 * The endpoint's literal template (`/scan/token/{mint}`, which indexers probe) is an offer too.
 * Anything else is declined and goes to Hono unchanged: other methods, a payment header, a
 * parameter that is not valid (Hono answers the 400), a query string, an escaped or odd path
 * (`%7Bmint%7D` included: Hono decodes it and answers the same offer),
 * a Host header that node-server would have to normalise.
 */
import { performance } from 'node:perf_hooks';
import { concretePath, GET_ENDPOINTS, type GetEndpoint, honoPath } from '../catalog.js';
import type { PaidDoor } from '../door/paid-door.js';
import { type Lane, logRequest, MAX_HOST_LENGTH, newFrame } from './frame.js';
import { isPlainText, type Logger } from './logger.js';
import type { BoundCounter, Metrics } from './metrics.js';
import { addOfferHeaders } from './paid-answers.js';
import { frameHeaders } from './respond.js';

/** Host headers node-server uses as they are (the same test as its own). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** Not a possible Host value (a space). */
const PAYMENT = 'paid request';

/**
 * The Host header, or PAYMENT when a payment header is present (the request is then not
 * ours), or undefined. One pass over the raw headers: building req.headers costs more.
 */
function hostUnlessPaid(rawHeaders: readonly string[]): string | undefined {
  let host: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4) {
      if (host === undefined && name.toLowerCase() === 'host') host = rawHeaders[i + 1];
    } else if (name.length === 9) {
      if (name.toLowerCase() === 'x-payment') return PAYMENT;
    } else if (name.length === 17) {
      if (name.toLowerCase() === 'payment-signature') return PAYMENT;
    }
  }
  return host;
}

/** A paid endpoint's path up to its parameter ('/scan/token/'), and its route pattern for the log. */
interface LaneRoute {
  readonly prefix: string;
  readonly endpoint: GetEndpoint;
  readonly route: string;
  /** This route's 402 counter, bound once: the lane's only metrics cost. */
  readonly counted: BoundCounter | undefined;
  /**
   * Route and prefix are plain text for the log line. The rest of a path the lane answers is
   * an admitted parameter (base58, or the template's `{name}` or `:name`), plain text too.
   */
  readonly plainText: boolean;
}

export interface UnpaidLaneDeps {
  readonly door: PaidDoor;
  readonly publicBaseUrl: string | null;
  readonly log: Logger;
  readonly metrics?: Metrics;
}

export function createUnpaidLane(deps: UnpaidLaneDeps): Lane {
  const { door, log } = deps;
  const routes: readonly LaneRoute[] = GET_ENDPOINTS.map((endpoint) => {
    const prefix = concretePath(endpoint, '');
    const route = honoPath(endpoint.path);
    const counted = deps.metrics?.requestCounter(route, 402);
    return { prefix, endpoint, route, counted, plainText: isPlainText(route) && isPlainText(prefix) };
  });
  // The last Host header found plain, and the origin it names: callers nearly always reach a
  // server by one name, so the pattern test and the string building are done once per name.
  let plainHost: string | undefined;
  let plainOrigin = '';

  return (req, res) => {
    // performance is imported: the global is a lazy getter, looked up on every use.
    const started = performance.now();
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    let match: LaneRoute | undefined;
    for (const route of routes) {
      if (url.startsWith(route.prefix)) {
        match = route;
        break;
      }
    }
    if (match === undefined) return false;
    const value = url.slice(match.prefix.length);
    const host = hostUnlessPaid(req.rawHeaders);
    // The lane answers only what the door's admission calls a plain offer. An admitted parameter
    // is base58 text or the endpoint's literal template ('{mint}', named in the offer as it is
    // written, as Hono names it decoded), so a query, escapes and odd paths all go to Hono.
    const request = { method: 'GET', value, hasPayment: host === PAYMENT };
    if (door.admit(match.endpoint, request).kind !== 'offer') return false;
    // No Host (refused for HTTP/1.1, named from the socket for 1.0), or one too long for a host
    // name (refused, and never kept by the offer book): Hono's side answers.
    if (host === undefined || host.length > MAX_HOST_LENGTH) return false;
    let origin = deps.publicBaseUrl;
    if (origin === null) {
      if (host !== plainHost) {
        if (!PLAIN_HOST.test(host)) return false;
        plainHost = host;
        plainOrigin = `http://${host}`;
      }
      origin = plainOrigin;
    }

    const frame = newFrame();
    frame.route = match.route;
    const offer = door.offer(match.endpoint, origin + url);
    const headers = addOfferHeaders(frameHeaders(frame), offer);
    headers['Content-Length'] = String(offer.bodyBytes);
    res.writeHead(402, headers);
    // Bytes once the offer has been asked for before: node:http then writes them as they are.
    res.end(offer.bytes ?? offer.body);
    logRequest(log, frame, 'GET', url, 402, started, match.plainText);
    match.counted?.inc();
    return true;
  };
}
