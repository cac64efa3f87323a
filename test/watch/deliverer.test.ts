import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '@solana-risk-scan/client/webhook';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { createDeliverer, isDelivered, REFUSED_PREFIX } from '../../src/watch/delivery/deliverer.js';
import type { ResolvedAddress } from '../../src/watch/webhook-url.js';

const key = signingKeyFromPem(generateKeyPem());
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

describe('createDeliverer', () => {
  let server: Server;
  let port: number;
  const received: Received[] = [];
  /** What each path answers. */
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/ok': (res) => res.writeHead(204).end(),
    '/fail': (res) => res.writeHead(503).end('down'),
    '/redirect': (res) => res.writeHead(302, { location: '/ok' }).end(),
    '/huge': (res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(1 << 20));
    },
    '/silent': () => {},
  };
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const sandbox = createDeliverer({ mode: 'sandbox', signingKey: key, limits: { timeoutMs: 2_000 } });
  const outgoing = (path: string) => ({
    webhookId: 'msg_1',
    webhook: `http://127.0.0.1:${port}${path}`,
    secret: SECRET,
    body: '{"type":"watch.changed"}',
  });

  it('posts the body signed, and a 2xx is delivered', async () => {
    const attempt = await sandbox(outgoing('/ok'));
    assert.equal(attempt.status, 204);
    assert.ok(isDelivered(attempt));
    const last = received.at(-1) as Received;
    assert.equal(last.body, '{"type":"watch.changed"}');
    assert.equal(last.headers['content-type'], 'application/json');
    assert.equal(last.headers['webhook-id'], 'msg_1');
    verifyWebhook(key.publicJwk, last.headers, last.body);
  });

  it('a 5xx or a redirect is not delivered, and the redirect is not followed', async () => {
    const failed = await sandbox(outgoing('/fail'));
    assert.equal(failed.status, 503);
    assert.ok(!isDelivered(failed));
    const before = received.length;
    const redirected = await sandbox(outgoing('/redirect'));
    assert.equal(redirected.status, 302);
    assert.equal(redirected.error, 'redirect not followed');
    assert.equal(received.length, before + 1, 'only the first request was made');
  });

  it('does not read a long answer to its end', async () => {
    const attempt = await sandbox(outgoing('/huge'));
    assert.equal(attempt.status, 200);
  });

  it('gives up on a webhook that never answers, within its timeout', async () => {
    const quick = createDeliverer({ mode: 'sandbox', signingKey: key, limits: { timeoutMs: 200 } });
    const attempt = await quick(outgoing('/silent'));
    assert.equal(attempt.status, null);
    assert.match(attempt.error ?? '', /no answer within 200 ms/);
  });

  it('a closed port is an attempt with no status, not a throw', async () => {
    const attempt = await sandbox({ ...outgoing('/ok'), webhook: 'http://127.0.0.1:1/' });
    assert.equal(attempt.status, null);
    assert.ok(attempt.error);
  });

  it('a delivery that cannot be signed, or a webhook not a URL, is an attempt with its error, not a throw', async () => {
    // The state's sender relies on it: it does not catch around the deliverer.
    const publicOnly = createPublicKey(key.privateKey);
    const unsigned = createDeliverer({ mode: 'sandbox', signingKey: { ...key, privateKey: publicOnly } });
    const before = received.length;
    const attempt = await unsigned(outgoing('/ok'));
    assert.equal(attempt.status, null);
    assert.ok(attempt.error);
    assert.equal(received.length, before, 'nothing was sent');
    const notUrl = await sandbox({ ...outgoing('/ok'), webhook: 'not a url' });
    assert.equal(notUrl.status, null);
    assert.ok(notUrl.error);
  });

  it('in mainnet mode never contacts a private or loopback address, and says so', async () => {
    const mainnet = createDeliverer({ mode: 'mainnet', signingKey: key });
    const before = received.length;
    const attempt = await mainnet({ ...outgoing('/ok'), webhook: `https://127.0.0.1:${port}/ok` });
    assert.equal(attempt.status, null);
    assert.ok(attempt.error?.startsWith(REFUSED_PREFIX));
    assert.match(attempt.error ?? '', /loopback/);
    assert.equal(received.length, before);
  });

  it('checks the host again at every attempt: a name rebound to a private address is refused', async () => {
    const answers: ResolvedAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '10.0.0.7', family: 4 }],
    ];
    const rebinding = createDeliverer({
      mode: 'sandbox',
      signingKey: key,
      resolve: async () => answers.shift() ?? [],
    });
    const first = await rebinding({ ...outgoing('/ok'), webhook: `http://hook.test:${port}/ok` });
    assert.equal(
      first.status,
      204,
      'the first answer is loopback, allowed in the sandbox, and is what it connects to',
    );
    const second = await rebinding({ ...outgoing('/ok'), webhook: `http://hook.test:${port}/ok` });
    assert.equal(second.status, null);
    assert.match(second.error ?? '', /resolves to 10\.0\.0\.7, a private address/);
  });
});
