/**
 * A local JSON-RPC endpoint whose answers a test scripts per method: a result, a JSON-RPC error,
 * an HTTP status (with headers), a dropped connection or no answer at all. It counts requests.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export type FakeAnswer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string } }
  | { readonly status: number; readonly headers?: Record<string, string> }
  | { readonly drop: true }
  /** A body sent as it is, with status 200 (an answer that is no JSON-RPC answer). */
  | { readonly raw: string }
  | { readonly hang: true };

/** Decides the answer to the `n`th request (1-based) for `method`. */
export type FakeScript = (method: string, n: number, params: unknown) => FakeAnswer;

export interface FakeRpc {
  readonly url: string;
  /** Requests received per method. */
  count(method: string): number;
  close(): Promise<void>;
}

export async function startFakeRpc(script: FakeScript): Promise<FakeRpc> {
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const payload = JSON.parse(body) as { id: unknown; method: string; params: unknown };
      const n = (counts.get(payload.method) ?? 0) + 1;
      counts.set(payload.method, n);
      const answer = script(payload.method, n, payload.params);
      if ('raw' in answer) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer.raw);
      } else if ('drop' in answer) {
        req.socket.destroy();
      } else if ('hang' in answer) {
        hanging.add(res);
      } else if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('fault injected');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: payload.id, ...answer }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: (method) => counts.get(method) ?? 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Starts fake endpoints on demand; all are closed once the test file's tests have run. */
export function fakeRpcPool(): (script: FakeScript) => Promise<FakeRpc> {
  const fakes: FakeRpc[] = [];
  after(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });
  return async (script) => {
    const rpc = await startFakeRpc(script);
    fakes.push(rpc);
    return rpc;
  };
}
