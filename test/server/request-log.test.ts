/** One structured log line per request; a payment header is never written to the log. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger, writeRequestLine } from '../../src/server/logger.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

describe('request log', () => {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let stub: FacilitatorStub;
  let svc: TestService;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService({ FACILITATOR_URLS: stub.url }, { log: createLogger('info', sink) });
  });
  after(async () => {
    await svc.close();
    await stub.close();
  });

  it('writes request id, route, status and duration for every request, matching X-Request-Id', async () => {
    lines.length = 0;
    const res = await fetch(`${svc.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
    await res.text();
    await fetch(`${svc.url}/nope`).then((r) => r.text());
    const [paid, missing] = lines.filter((l) => l.msg === 'request');
    assert.equal(paid?.req_id, res.headers.get('x-request-id'));
    assert.equal(paid?.route, '/scan/token/:mint');
    assert.equal(paid?.status, 402);
    assert.equal(typeof paid?.ms, 'number');
    assert.equal(missing?.status, 404);
  });

  it('logs a payment header only as size and digest', async () => {
    lines.length = 0;
    const secret = Buffer.from(
      JSON.stringify({
        x402Version: 1,
        scheme: 'exact',
        network: 'solana',
        payload: { transaction: 'c2VjcmV0LXRyYW5zYWN0aW9u' },
      }),
    ).toString('base64');
    await fetch(`${svc.url}/scan/wallet/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`, {
      headers: { 'X-PAYMENT': secret },
    }).then((r) => r.text());
    const text = JSON.stringify(lines);
    assert.ok(!text.includes(secret), 'the header is not in the log');
    assert.ok(!text.includes('c2VjcmV0LXRyYW5zYWN0aW9u'), 'nor the transaction');
    const line = lines.find((l) => l.msg === 'request');
    assert.equal(line?.payment.bytes, secret.length);
    assert.match(line?.payment.sha256, /^[0-9a-f]{16}$/);
  });
});

describe('the request line', () => {
  function capture(level: string) {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    return { log: createLogger(level, sink), written };
  }

  /** The line writeRequestLine writes and the one pino writes for the same fields, parsed. */
  async function bothLines(extra: Record<string, unknown>) {
    const mine = capture('info');
    const pinos = capture('info');
    const fields = {
      requestId: '8316720c-dd1b-42c8-9bf3-f7a134e18a71',
      method: 'GET',
      route: null,
      path: '/scan/token/"quoted"\\ and ünïcode',
      status: 402,
      ms: 0.07,
      extra,
    };
    writeRequestLine(mine.log, fields);
    pinos.log.info(
      {
        req_id: fields.requestId,
        method: fields.method,
        route: fields.route,
        path: fields.path,
        status: fields.status,
        ms: fields.ms,
        ...extra,
      },
      'request',
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(mine.written.length, 1);
    assert.ok(mine.written[0]!.endsWith('\n'), 'one whole line');
    const a = JSON.parse(mine.written[0]!);
    const b = JSON.parse(pinos.written[0]!);
    assert.ok(Math.abs(a.time - b.time) < 1000);
    a.time = b.time;
    return [a, b] as const;
  }

  it('is the line pino writes for the same fields, key for key and in the same order', async () => {
    const [mine, pinos] = await bothLines({});
    assert.deepEqual(Object.keys(mine), Object.keys(pinos));
    assert.deepEqual(mine, pinos);
  });

  it('with extra fields, still one valid line: undefined left out, bigints and escapes kept', async () => {
    const extra = {
      payment: { bytes: 1234, sha256: 'abcdef0123456789' },
      payment_key: 'k"ey\\',
      outcome: undefined,
      lamports: 12345678901234567890n,
    };
    const [mine, pinos] = await bothLines(extra);
    assert.deepEqual(Object.keys(mine), Object.keys(pinos));
    assert.deepEqual(mine, pinos);
    assert.equal('outcome' in mine, false);
    assert.deepEqual(mine.payment, extra.payment);
    assert.equal(mine.payment_key, extra.payment_key);
  });

  it('is not written below the logger level', async () => {
    for (const level of ['warn', 'silent']) {
      const quiet = capture(level);
      writeRequestLine(quiet.log, {
        requestId: 'x',
        method: 'GET',
        route: '/',
        path: '/',
        status: 200,
        ms: 1,
        extra: {},
      });
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(quiet.written, [], level);
    }
  });
});

describe('a log destination that fails', () => {
  it('costs no request its answer (the unpaid lane and the Hono routes alike)', async () => {
    const broken = {
      write(): boolean {
        throw new Error('disk full');
      },
    };
    const stub = await startFacilitatorStub(TEST_FEE_PAYER);
    const svc = await startTestService({ FACILITATOR_URLS: stub.url }, { log: createLogger('info', broken) });
    try {
      const offer = await fetch(`${svc.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
      assert.equal(offer.status, 402);
      assert.equal(((await offer.json()) as { x402Version: number }).x402Version, 1);
      const missing = await fetch(`${svc.url}/nope`);
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { error: string }).error, 'not_found');
      const health = await fetch(`${svc.url}/health`);
      assert.equal(health.status, 200);
    } finally {
      await svc.close();
      await stub.close();
    }
  });
});
