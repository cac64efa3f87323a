/** Runs the app on node:http with clean refusals for requests too large to parse. */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { ServiceError } from '../errors.js';
import type { FramedApp, Refusal } from './frame.js';

/** Largest request head (request line + headers) accepted; x402 payment headers are ~1–2 KiB. */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

/** Writes a framed refusal straight to the socket and closes it: the parser cannot go on. */
function writeRefusal(socket: Socket, reason: string, refusal: Refusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  let head = `HTTP/1.1 ${refusal.status} ${reason}\r\n`;
  for (const [name, value] of Object.entries(refusal.headers)) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${Buffer.byteLength(refusal.body)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + refusal.body);
}

/** Node parses the head before our app sees it; its parse failures are answered in JSON too. */
function clientErrorHandler(app: Pick<FramedApp, 'refuse'>) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      const message = `Request headers exceed ${MAX_HEADER_BYTES} bytes`;
      const refusal = app.refuse(new ServiceError('headers_too_large', message), '-', '-');
      writeRefusal(socket, 'Request Header Fields Too Large', refusal);
    } else {
      const message = 'The request could not be parsed as HTTP';
      writeRefusal(socket, 'Bad Request', app.refuse(new ServiceError('bad_request', message), '-', '-'));
    }
  };
}

/**
 * What a caller is told when @hono/node-server cannot build a URL from the request (its
 * RequestError messages, which are fixed texts).
 */
function unreadableReason(err: unknown): string {
  const text = err instanceof Error ? err.message : '';
  if (/host/i.test(text)) return 'The Host header is not a valid host name';
  if (/backslash/i.test(text)) return 'The request path contains a backslash';
  if (/absolute/i.test(text)) return 'The request target is not a valid absolute URL';
  return 'The request target is not a valid path (it must start with "/")';
}

/**
 * The Host a request without one (HTTP/1.0, or an empty header) is taken to have named: the
 * address and port it reached. Otherwise node-server falls back to the listening host without
 * its port (`http://0.0.0.0/…`), and every URL the service writes would point nowhere.
 */
function localHost(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `${host}:${socket.localPort}`;
}

export async function listen(
  app: Pick<FramedApp, 'fetch' | 'lane' | 'refuse'>,
  options: { port: number; host: string },
): Promise<RunningServer> {
  // The request node-server is turning into a Request: its errorHandler is called synchronously
  // from that attempt (before any await), so this is the request it failed on.
  let current: IncomingMessage | null = null;
  const honoListener = getRequestListener(app.fetch, {
    hostname: options.host,
    errorHandler: (err) => {
      const method = current?.method ?? '-';
      const target = current?.url ?? '-';
      const refusal = app.refuse(new ServiceError('bad_request', unreadableReason(err)), method, target);
      return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    },
  });
  const toHono = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.headers.host) req.headers.host = localHost(req.socket);
    current = req;
    void honoListener(req, res);
    current = null;
  };
  const lane = app.lane;
  const listener: RequestListener =
    lane === undefined
      ? toHono
      : (req, res) => {
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
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 30_000, headersTimeout: 10_000 },
    listener,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', clientErrorHandler(app));
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
