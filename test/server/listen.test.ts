/**
 * Requests that never reach the app, or reach it odd: every one is answered in JSON with the
 * frame's headers (CORS, X-Request-Id), and the limits are the README's. Raw sockets, because
 * fetch cannot send a broken request line, a backslash, a bad Host or no Host at all.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS } from '../../src/errors.js';
import type { ReasonCode } from '../../src/reasons.js';
import { MAX_HOST_LENGTH, MAX_URL_LENGTH } from '../../src/server/frame.js';
import { listen, localHost, parserRefusal } from '../../src/server/listen.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { errorCode } from '../helpers/reason-code.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Sends `head` as it is and reads the answer until the server closes the connection. */
function exchange(port: number, head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
  });
}

/** A GET of `target` naming `host` (no Host header at all when null), closing after the answer. */
function get(port: number, target: string, host: string | null, version = '1.1'): Promise<RawAnswer> {
  const hostLine = host === null ? '' : `Host: ${host}\r\n`;
  return exchange(port, `GET ${target} HTTP/${version}\r\n${hostLine}Connection: close\r\n\r\n`);
}

/** The answer is a JSON error naming `code` as its reason, carrying the frame's headers. */
function assertFramedError(answer: RawAnswer, status: number, code: ReasonCode): void {
  assert.equal(answer.status, status, answer.body);
  const body = JSON.parse(answer.body);
  assert.equal(errorCode(status, body), code);
  assert.match(answer.headers['content-type'] ?? '', /application\/json/);
  assert.equal(answer.headers['access-control-allow-origin'], '*');
  assert.match(answer.headers['access-control-expose-headers'] ?? '', /PAYMENT-REQUIRED/i);
  assert.match(answer.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(body.request_id, answer.headers['x-request-id']);
}

let stub: FacilitatorStub;
let svc: TestService;
let port: number;
let host: string;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  svc = await startTestService({ FACILITATOR_URLS: stub.url });
  port = Number(new URL(svc.url).port);
  host = `127.0.0.1:${port}`;
});

after(async () => {
  await svc.close();
  await stub.close();
});

describe('requests the app cannot read', () => {
  it('a request line that is not HTTP → 400 bad_request JSON, with CORS and a request id', async () => {
    assertFramedError(await exchange(port, 'HELLO THERE\r\n\r\n'), 400, 'http_unparsable');
  });

  it('headers over 64 KiB → 431 headers_too_large JSON, with CORS and a request id', async () => {
    const filler = `X-Filler: ${'a'.repeat(70 * 1024)}\r\n`;
    const answer = await exchange(port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n${filler}\r\n`);
    assertFramedError(answer, 431, 'headers_too_large');
  });

  it('a backslash in the path → 400 bad_request JSON saying so', async () => {
    const answer = await get(port, '/scan/token\\x', host);
    assertFramedError(answer, 400, 'path_backslash');
  });

  it('HTTP/1.1 without a Host → 400 bad_request JSON (HTTP/1.0 may omit it)', async () => {
    const answer = await exchange(port, `GET /scan/token/${USDC} HTTP/1.1\r\nConnection: close\r\n\r\n`);
    assertFramedError(answer, 400, 'host_missing');
  });

  it('a request target that is neither a path nor an absolute URL → 400 bad_request JSON saying which', async () => {
    assertFramedError(await get(port, '*', host), 400, 'target_not_path');
    assertFramedError(await get(port, 'http://%zz/health', host), 400, 'target_not_absolute');
  });

  for (const bad of ['user@evil.example', 'evil.example/path', 'x:99999', 'a b']) {
    it(`a Host that is not a host name (${bad}) → 400 bad_request JSON`, async () => {
      const answer = await get(port, `/scan/token/${USDC}`, bad);
      assertFramedError(answer, 400, 'host_invalid');
    });
  }
});

describe('limits', () => {
  it(`a request target over ${MAX_URL_LENGTH} characters → 414, however long the Host`, async () => {
    const longHost = `${'h'.repeat(MAX_HOST_LENGTH - 6)}:${port}`;
    const fits = `/nope/${'x'.repeat(MAX_URL_LENGTH - 6)}`;
    assert.equal(fits.length, MAX_URL_LENGTH);
    assert.equal((await get(port, fits, longHost)).status, 404, 'exactly the limit is read');
    assertFramedError(await get(port, `${fits}x`, 'a'), 414, 'uri_too_long');
  });

  it(`a Host over ${MAX_HOST_LENGTH} characters → 400 on a paid path (no offer is made for it) and elsewhere`, async () => {
    const longHost = `${'h'.repeat(MAX_HOST_LENGTH - 5)}:${port}`;
    assert.equal(longHost.length, MAX_HOST_LENGTH + 1);
    for (const target of [`/scan/token/${USDC}`, '/health']) {
      const answer = await get(port, target, longHost);
      assertFramedError(answer, 400, 'host_too_long');
    }
  });
});

describe('requests without a Host', () => {
  for (const [what, hostHeader] of [
    ['HTTP/1.0 without Host', null],
    ['an empty Host', ''],
  ] as const) {
    it(`${what}: URLs name the address and port the request reached`, async () => {
      const answer = await get(port, `/scan/token/${USDC}`, hostHeader, '1.0');
      assert.equal(answer.status, 402, answer.body);
      assert.equal(JSON.parse(answer.body).accepts[0].resource, `http://${host}/scan/token/${USDC}`);
      const root = await get(port, '/', hostHeader, '1.0');
      assert.ok(root.body.includes(`http://${host}/openapi.json`), root.body);
    });
  }
});

describe('localHost', () => {
  it('names the address and port reached; an IPv4 client of a dual-stack socket by its IPv4 address', () => {
    assert.equal(localHost({ localAddress: '127.0.0.1', localPort: 8402 }), '127.0.0.1:8402');
    assert.equal(localHost({ localAddress: '::ffff:10.0.0.7', localPort: 80 }), '10.0.0.7:80');
    assert.equal(localHost({ localAddress: '::1', localPort: 8402 }), '[::1]:8402');
    assert.equal(localHost({ localAddress: 'fe80::1%eth0', localPort: 8402 }), '[fe80::1]:8402');
  });
});

describe('parserRefusal', () => {
  it('answers as node:http would: 431 for headers too large, 408 for a request too slow, else 400', () => {
    const of = (code: string) => parserRefusal(Object.assign(new Error(code), { code }));
    assert.equal(of('HPE_HEADER_OVERFLOW').error.status, 431);
    assert.equal(of('ERR_HTTP_REQUEST_TIMEOUT').error.status, 408);
    assert.equal(of('ERR_HTTP_REQUEST_TIMEOUT').reason, 'Request Timeout');
    assert.equal(of('HPE_INVALID_METHOD').error.status, ERROR_STATUS.bad_request);
  });
});

describe('a CONNECT request', () => {
  it('is answered 405 in JSON with the frame’s headers, not dropped', async () => {
    const answer = await exchange(port, `CONNECT /scan/pumpfun/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    assertFramedError(answer, 405, 'connect_not_supported');
  });
});

describe('a client that sends its head too slowly', () => {
  // node:http sweeps for late heads every 30 s unless told otherwise: with that default this
  // answer would come only after the test's timeout.
  it('is answered 408 in JSON soon after the head deadline', { timeout: 5_000 }, async () => {
    const running = await listen(svc.service.app, {
      port: 0,
      host: '127.0.0.1',
      deadlines: { headMs: 200, requestMs: 1_000 },
    });
    try {
      const answer = await exchange(Number(new URL(running.url).port), 'GET /health HTTP/1.1\r\nHost: x\r\n');
      assertFramedError(answer, 408, 'request_timeout');
    } finally {
      await running.close();
    }
  });
});
