/** One structured log line per request; a payment header is never written to the log. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/server/logger.js';
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
