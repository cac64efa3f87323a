/** Runs the app on node:http with clean refusals for requests too large to parse. */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

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
  app: { fetch: Hono['fetch'] },
  options: { port: number; host: string },
): Promise<RunningServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 30_000, headersTimeout: 10_000 },
      },
      () => resolve(s as Server),
    ) as Server;
    s.once('error', reject);
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
