/**
 * A stand-in facilitator that only answers GET /supported, for tests of what the 402
 * advertises. Its behaviour can be switched to inject faults (down, slow, garbage).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `late`: answers as `ok` does, 300 ms late; `slow`: never answers, so only a client timeout ends the call. */
export type StubBehaviour = 'ok' | 'late' | 'http-500' | 'garbage' | 'slow' | 'no-solana';

export interface FacilitatorStub {
  readonly url: string;
  readonly feePayer: string;
  behaviour: StubBehaviour;
  /** How many /supported requests it has answered. */
  readonly calls: () => number;
  close(): Promise<void>;
}

export async function startFacilitatorStub(
  feePayer: string,
  behaviour: StubBehaviour = 'ok',
): Promise<FacilitatorStub> {
  let calls = 0;
  const state = { behaviour };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/supported') {
      res.writeHead(404).end();
      return;
    }
    calls++;
    switch (state.behaviour) {
      case 'http-500':
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
        return;
      case 'slow':
        return;
      case 'no-solana':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ kinds: [{ x402Version: 1, scheme: 'exact', network: 'base' }] }));
        return;
      case 'late':
        setTimeout(() => answerOk(res), 300).unref();
        return;
      default:
        answerOk(res);
    }
  });
  function answerOk(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        kinds: [
          { x402Version: 1, scheme: 'exact', network: 'solana', extra: { feePayer } },
          {
            x402Version: 2,
            scheme: 'exact',
            network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
            extra: { feePayer },
          },
        ],
        extensions: [],
        signers: { 'solana:*': [feePayer] },
      }),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    feePayer,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b: StubBehaviour) {
      state.behaviour = b;
    },
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
