/** Runs the app on node:http with clean refusals for requests too large to parse. */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, isIPv4, type Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { reasonError, type ServiceError, toServiceError } from '../errors.js';
import { reason } from '../reasons.js';
import type { FramedApp, Refusal } from './frame.js';

/** Largest request head (request line + headers) accepted; x402 payment headers are ~1–2 KiB. */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Where GET /metrics is served, when METRICS_PORT is set. */
  readonly metricsUrl?: string;
  close(): Promise<void>;
}

/** Writes a framed refusal straight to the socket and closes it: the parser cannot go on. */
function writeRefusal(socket: Socket, reason: string, refusal: Refusal): void {
  let head = `HTTP/1.1 ${refusal.status} ${reason}\r\n`;
  for (const [name, value] of Object.entries(refusal.headers)) head += `${name}: ${value}\r\n`;
  head += 'Connection: close\r\n\r\n';
  socket.end(head + refusal.body);
}

/** The answer to each parser failure node:http reports, as its own default handler gives it. */
export function parserRefusal(err: NodeJS.ErrnoException): { error: ServiceError; reason: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        error: reasonError(reason('headers_too_large', { bytes: MAX_HEADER_BYTES })),
        reason: 'Request Header Fields Too Large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        error: reasonError(reason('request_timeout')),
        reason: 'Request Timeout',
      };
    default:
      return {
        error: reasonError(reason('http_unparsable')),
        reason: 'Bad Request',
      };
  }
}

/**
 * Node parses the head before our app sees it; its parse failures are answered in JSON too.
 * As node:http's own handler does, nothing is written into a response already under way on the
 * connection (its head sent), and the socket is closed either way: the parser cannot go on.
 */
function clientErrorHandler(app: Pick<FramedApp, 'refuse'>) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent === true) {
      socket.destroy();
      return;
    }
    const { error, reason } = parserRefusal(err);
    writeRefusal(socket, reason, app.refuse(error, '-', '-'));
  };
}

/**
 * What a caller is told when @hono/node-server cannot build a URL from the request. Its
 * RequestError messages are fixed texts; a Host that makes the URL unparsable surfaces as a
 * plain "Invalid URL", so the Host itself is checked too.
 */
function unreadableReason(err: Error, req: IncomingMessage): ServiceError {
  const text = err.message;
  const host = req.headers.host ?? '';
  if (/backslash/i.test(text)) return reasonError(reason('path_backslash'));
  if (/absolute/i.test(text)) return reasonError(reason('target_not_absolute'));
  if (/host/i.test(text) || !URL.canParse(`http://${host}/`)) return reasonError(reason('host_invalid'));
  return reasonError(reason('target_not_path'));
}

/**
 * The Host a request without one (HTTP/1.0, or an empty header) is taken to have named: the
 * address and port it reached. Otherwise node-server falls back to the listening host without
 * its port (`http://0.0.0.0/…`), and every URL the service writes would point nowhere. An IPv4
 * client of a dual-stack socket reached `::ffff:a.b.c.d`, which is named as `a.b.c.d`.
 */
export function localHost(socket: Pick<Socket, 'localAddress' | 'localPort'>): string {
  let address = (socket.localAddress ?? '127.0.0.1').replace(/%.*$/, '');
  if (address.startsWith('::ffff:') && isIPv4(address.slice(7))) address = address.slice(7);
  const host = address.includes(':') ? `[${address}]` : address;
  return `${host}:${socket.localPort}`;
}

/** How long a client may take to send a request head, and the whole request. */
export interface RequestDeadlines {
  readonly headMs: number;
  readonly requestMs: number;
}

export const REQUEST_DEADLINES: RequestDeadlines = { headMs: 10_000, requestMs: 30_000 };

/**
 * node:http enforces both deadlines only when it sweeps its connections, every 30 s by default,
 * so a slow head would wait up to 40 s for its 408: sweep at a tenth of the head deadline.
 */
function serverTimeouts(deadlines: RequestDeadlines) {
  return {
    headersTimeout: deadlines.headMs,
    requestTimeout: deadlines.requestMs,
    connectionsCheckingInterval: Math.max(10, Math.floor(deadlines.headMs / 10)),
  };
}

/** Lets the lane answer what it can; Hono's route answers the rest. */
function laneFirst(lane: NonNullable<FramedApp['lane']>, toHono: RequestListener): RequestListener {
  return (req, res) => {
    let answered = false;
    try {
      answered = lane(req, res);
    } catch {
      // The lane computes its whole answer before writing: whatever failed, Hono's route
      // answers the request instead (and reports the failure as a 500 if it recurs).
      answered = res.headersSent;
    }
    if (!answered) toHono(req, res);
  };
}

export async function listen(
  app: Pick<FramedApp, 'fetch' | 'lane' | 'refuse'>,
  options: { port: number; host: string; deadlines?: RequestDeadlines },
): Promise<RunningServer> {
  // The request node-server is turning into a Request: its errorHandler is called synchronously
  // from that attempt (before any await), so this is the request it failed on.
  // Only request-building errors are the caller's; anything else (none reaches here today: the
  // frame answers its own failures) is ours, a 500.
  let current: IncomingMessage | null = null;
  const honoListener = getRequestListener(app.fetch, {
    hostname: options.host,
    errorHandler: (err) => {
      const req = current;
      const error =
        req !== null && err instanceof RequestError ? unreadableReason(err, req) : toServiceError(err);
      const refusal = app.refuse(error, req?.method ?? '-', req?.url ?? '-');
      return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    },
  });
  const send = (res: ServerResponse, refusal: Refusal) =>
    res.writeHead(refusal.status, refusal.headers).end(refusal.body);
  const toHono = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.headers.host) {
      // HTTP/1.1 requires a Host (node:http's own check is off, so the refusal is JSON too).
      if (req.headers.host === undefined && req.httpVersion !== '1.0') {
        const error = reasonError(reason('host_missing'));
        send(res, app.refuse(error, req.method ?? '-', req.url ?? '-'));
        return;
      }
      req.headers.host = localHost(req.socket);
    }
    current = req;
    void honoListener(req, res);
    current = null;
  };
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      ...serverTimeouts(options.deadlines ?? REQUEST_DEADLINES),
      // Checked in toHono, to answer in JSON like every other refusal.
      requireHostHeader: false,
    },
    app.lane === undefined ? toHono : laneFirst(app.lane, toHono),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', clientErrorHandler(app));
  // node:http hands CONNECT to this event and, with no listener, drops the connection unanswered.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const error = reasonError(reason('connect_not_supported'));
    writeRefusal(socket, 'Method Not Allowed', app.refuse(error, 'CONNECT', req.url ?? '-'));
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
