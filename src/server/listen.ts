/** Runs the app on node:http with clean refusals for requests too large to parse. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { FramedApp } from './frame.js';

/** Largest request head (request line + headers) accepted; x402 payment headers are ~1–2 KiB. */
export const MAX_HEADER_BYTES = 64 * 1024;

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

function refuse(socket: Socket, status: number, reason: string, code: string, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: code, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Node parses the head before our app sees it; answer its parse failures with JSON too. */
function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    const message = `Request headers exceed ${MAX_HEADER_BYTES} bytes`;
    refuse(socket, 431, 'Request Header Fields Too Large', 'headers_too_large', message);
  } else refuse(socket, 400, 'Bad Request', 'bad_request', 'The request could not be parsed as HTTP');
}

export async function listen(
  app: Pick<FramedApp, 'fetch' | 'lane'>,
  options: { port: number; host: string },
): Promise<RunningServer> {
  const honoListener = getRequestListener(app.fetch, { hostname: options.host });
  const lane = app.lane;
  const listener: RequestListener =
    lane === undefined
      ? honoListener
      : (req, res) => {
          let answered = false;
          try {
            answered = lane(req, res);
          } catch {
            // The lane computes its whole answer before writing: whatever failed, Hono's route
            // answers the request instead (and reports the failure as a 500 if it recurs).
            answered = res.headersSent;
          }
          if (!answered) void honoListener(req, res);
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
  server.on('clientError', onClientError);
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
