/**
 * A fault-injecting HTTP proxy for tests, placed in front of a JSON-RPC endpoint (the sandbox
 * RPC) or any HTTP service (a sandbox facilitator). For each request the test's `plan` picks a
 * fault from the request's method (the JSON-RPC method, or "POST /settle" for plain HTTP) and
 * its number among requests of that method; the proxy then forwards it to the target or not,
 * and spoils the answer as asked. A 500, a reset or a hang may also come `afterForwarding`: the
 * target did the work (a facilitator settled), and its answer is lost on the way back.
 *
 * `close()` ends everything it holds (hung and dripping answers included): no open handles.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  /** Forwarded and answered as the target answered. */
  | { readonly kind: 'pass' }
  /** Forwarded, answered after `ms` more. */
  | { readonly kind: 'latency'; readonly ms: number }
  /** Not forwarded: HTTP 429, with `Retry-After` when given. */
  | { readonly kind: '429'; readonly retryAfter?: string }
  /** Not forwarded (or, `afterForwarding`, the target's answer replaced): HTTP 500 with a JSON body. */
  | { readonly kind: '500'; readonly afterForwarding?: boolean }
  /** Not forwarded (or forwarded and its answer dropped): the connection is destroyed without an answer. */
  | { readonly kind: 'reset'; readonly afterForwarding?: boolean }
  /** Forwarded; answered 200 with a body that is not JSON. */
  | { readonly kind: 'malformed' }
  /** Forwarded; answered with a Content-Length larger than the half of the body sent, then the connection ends. */
  | { readonly kind: 'truncated' }
  /** Forwarded; the JSON-RPC answer's `id` replaced by another. */
  | { readonly kind: 'wrong-id' }
  /** Forwarded; the body trickled `bytes` at a time every `intervalMs`. */
  | { readonly kind: 'drip'; readonly intervalMs: number; readonly bytes?: number }
  /**
   * Not forwarded (or forwarded and its answer withheld), never answered: held until the client
   * gives up or the proxy closes.
   */
  | { readonly kind: 'hang'; readonly afterForwarding?: boolean };

export interface FaultRequest {
  /** The JSON-RPC method, or `${httpMethod} ${path}` when the body names none. */
  readonly method: string;
  /** 1-based: this is the n-th request of `method` the proxy has seen. */
  readonly n: number;
  /** The JSON-RPC params, when there are some. */
  readonly params: unknown;
}

export type FaultPlan = (request: FaultRequest) => Fault;

export interface FaultProxy {
  readonly url: string;
  /** Replaces the plan for the requests that follow. */
  setPlan(plan: FaultPlan): void;
  /** Requests seen, per method. */
  readonly seen: ReadonlyMap<string, number>;
  /** Faults applied (anything but `pass`), per kind. */
  readonly applied: ReadonlyMap<Fault['kind'], number>;
  close(): Promise<void>;
}

export const PASS: FaultPlan = () => ({ kind: 'pass' });

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function describe(body: Buffer, httpMethod: string, path: string): { method: string; params: unknown } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { method?: unknown; params?: unknown };
    if (typeof parsed?.method === 'string') return { method: parsed.method, params: parsed.params };
  } catch {
    // not JSON: named by its HTTP method and path
  }
  return { method: `${httpMethod} ${path}`, params: undefined };
}

export async function startFaultProxy(target: string, initialPlan: FaultPlan = PASS): Promise<FaultProxy> {
  let plan = initialPlan;
  let closed = false;
  const seen = new Map<string, number>();
  const applied = new Map<Fault['kind'], number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const upstream = new AbortController();
  const base = new URL(target);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const forward = async (req: IncomingMessage, body: Buffer) => {
    const url = new URL(req.url ?? '/', base);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    }
    const res = await fetch(url, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      signal: upstream.signal,
    });
    const out: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
    });
    return { status: res.status, headers: out, body: Buffer.from(await res.arrayBuffer()) };
  };

  const send = (res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer) => {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const { method, params } = describe(body, req.method ?? 'GET', new URL(req.url ?? '/', base).pathname);
    const n = (seen.get(method) ?? 0) + 1;
    seen.set(method, n);
    const fault = plan({ method, n, params });
    if (fault.kind !== 'pass') applied.set(fault.kind, (applied.get(fault.kind) ?? 0) + 1);
    const afterForwarding = 'afterForwarding' in fault && fault.afterForwarding === true;
    if (!afterForwarding) {
      switch (fault.kind) {
        case 'hang':
          return; // answered never; close() destroys the socket
        case 'reset':
          req.socket.destroy();
          return;
        case '429':
          send(
            res,
            429,
            {
              'content-type': 'application/json',
              ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
            },
            Buffer.from('{"error":"rate limited"}'),
          );
          return;
        case '500':
          send(res, 500, { 'content-type': 'application/json' }, Buffer.from('{"error":"internal"}'));
          return;
        default:
          break;
      }
    }
    const answer = await forward(req, body);
    if (closed) return;
    switch (fault.kind) {
      case 'hang':
        return; // the target's answer is withheld; close() destroys the socket
      case 'reset':
        req.socket.destroy();
        return;
      case '500':
        send(res, 500, { 'content-type': 'application/json' }, Buffer.from('{"error":"internal"}'));
        return;
      case 'pass':
        send(res, answer.status, answer.headers, answer.body);
        return;
      case 'latency':
        await sleep(fault.ms);
        if (!closed) send(res, answer.status, answer.headers, answer.body);
        return;
      case 'malformed':
        send(
          res,
          200,
          { 'content-type': 'application/json' },
          Buffer.from('{"jsonrpc":"2.0","result":{"val'),
        );
        return;
      case 'wrong-id': {
        let spoiled = answer.body;
        try {
          const parsed = JSON.parse(answer.body.toString('utf8')) as { id?: unknown };
          const id = typeof parsed.id === 'number' ? parsed.id + 1000 : `${String(parsed.id)}-not-yours`;
          spoiled = Buffer.from(JSON.stringify({ ...parsed, id }));
        } catch {
          // not JSON: passed as it is
        }
        send(res, answer.status, answer.headers, spoiled);
        return;
      }
      case 'truncated': {
        res.writeHead(answer.status, {
          ...answer.headers,
          'content-length': String(answer.body.length + 64),
        });
        res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => res.socket?.end());
        return;
      }
      case 'drip': {
        const step = Math.max(1, fault.bytes ?? 1);
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
        for (let at = 0; at < answer.body.length; at += step) {
          if (closed || res.destroyed) return;
          res.write(answer.body.subarray(at, at + step));
          await sleep(fault.intervalMs);
        }
        if (!closed && !res.destroyed) res.end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // The target failed or the client left: the connection goes, as a broken proxy's would.
      if (!res.headersSent && !res.destroyed) send(res, 502, {}, Buffer.from('bad gateway'));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setPlan: (next) => {
      plan = next;
    },
    seen,
    applied,
    close: async () => {
      closed = true;
      upstream.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await done;
    },
  };
}
