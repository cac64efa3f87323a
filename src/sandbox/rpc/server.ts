import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { SandboxChain } from '../chain/chain.js';
import { handleJsonRpc } from './dispatch.js';
import { RpcErrorCode } from './errors.js';
import { stringifyRpc } from './json.js';
import { callsOf, ProfileGate, type RpcProfileName, type RpcProfileOptions } from './profiles.js';
import { SubscriptionSession } from './subscriptions.js';

export interface SandboxRpcOptions {
  chain: SandboxChain;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Which provider the RPC answers as (profiles.ts); default 'ideal', every call served. */
  profile?: RpcProfileName | RpcProfileOptions | undefined;
}

export interface SandboxRpc {
  /** http://host:port: JSON-RPC over HTTP POST. */
  url: string;
  /** ws://host:port: subscriptions, on the same port, as x402 facilitators derive it from the HTTP URL. */
  wsUrl: string;
  /** Drops every WebSocket client at once, as a provider restarting its nodes does (subscriptions are lost). */
  dropSockets(): void;
  /** HTTP bodies answered 429 for the profile's rate limit, since the start. */
  rateLimited(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(
  response: ServerResponse,
  status: number,
  body: string,
  type = 'application/json',
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** The id a whole-body answer (a provider's 429 or 410) carries: the request's, or null for a batch. */
function bodyId(parsed: unknown): unknown {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { id } = parsed as Record<string, unknown>;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

async function serveHttp(
  chain: SandboxChain,
  gate: ProfileGate,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // Validators answer GET /health for load balancers; clients probing it get the same answer here.
  if (request.method === 'GET' && request.url === '/health') return reply(response, 200, 'ok', 'text/plain');
  if (request.method !== 'POST')
    return reply(response, 405, 'Used HTTP Method is not allowed. POST is required', 'text/plain');
  const body = await readBody(request);
  if (body === null) return reply(response, 413, 'Payload Too Large', 'text/plain');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const error = {
      jsonrpc: '2.0',
      id: null,
      error: { code: RpcErrorCode.ParseError, message: 'Parse error' },
    };
    return reply(response, 200, stringifyRpc(error));
  }
  const refusal = gate.admit(request.socket.remoteAddress ?? '', callsOf(parsed));
  if (refusal) {
    const answer = { jsonrpc: '2.0', error: refusal.error, id: bodyId(parsed) };
    return reply(response, refusal.status, stringifyRpc(answer), 'application/json', refusal.headers);
  }
  reply(response, 200, stringifyRpc(await handleJsonRpc(chain, parsed, (call) => gate.refuse(call))));
}

/** Serves Solana JSON-RPC over HTTP and WebSocket subscriptions on one port. */
export async function startSandboxRpc(options: SandboxRpcOptions): Promise<SandboxRpc> {
  const { chain, host = '127.0.0.1', port = 0 } = options;
  const gate = new ProfileGate(chain, options.profile);
  const server = createServer((request, response) => {
    serveHttp(chain, gate, request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, String(error), 'text/plain');
    });
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) => {
    const session = new SubscriptionSession(chain, socket);
    socket.on('message', (data) => session.handle(data.toString()));
    socket.on('close', () => session.close());
    socket.on('error', () => session.close());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const authority = `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: `http://${authority}`,
    wsUrl: `ws://${authority}`,
    dropSockets: () => {
      for (const client of sockets.clients) client.terminate();
    },
    rateLimited: () => gate.rateLimited,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
