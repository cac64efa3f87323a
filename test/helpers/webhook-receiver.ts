/**
 * A real local HTTP server standing for a watch's webhook: keeps every request it receives
 * (headers and raw body), and answers 503 while it is "down", 200 otherwise; while it "holds",
 * it answers nothing until release().
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** What the receiver answered (null while held). */
  status: number | null;
}

export interface WebhookReceiver {
  readonly url: (path: string) => string;
  readonly received: ReceivedDelivery[];
  /** Received on `path`. */
  on(path: string): ReceivedDelivery[];
  down: boolean;
  hold: boolean;
  /** Answers the requests held so far. */
  release(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const held: (() => void)[] = [];
  const receiver = {
    down: false,
    hold: false,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    received,
    on: (path: string) => received.filter((r) => r.path === path),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: ReceivedDelivery = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: null,
      };
      received.push(entry);
      const answer = () => {
        entry.status = receiver.down ? 503 : 200;
        res.writeHead(entry.status).end();
      };
      if (receiver.hold) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
