/**
 * Two API processes (each `npm start` in mainnet mode) share one Redis and one sandbox chain:
 * what one sold or scanned, the other knows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type ApiProcess, startApiProcess } from '../helpers/api-process.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 20_000n; // /scan/wallet
const OTHER_WALLET = 'So11111111111111111111111111111111111111112';
const PUBLIC_BASE_URL = 'https://scan.test';

describe('two API processes on one Redis', { timeout: 120_000 }, () => {
  let s: PaidSandbox;
  let redis: RedisServer;
  let a: ApiProcess;
  let b: ApiProcess;

  before(async () => {
    s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    redis = await startRedis({ persist: true });
    const env = {
      RISK_SCAN_MODE: 'mainnet',
      PAY_TO: s.payTo,
      PUBLIC_BASE_URL,
      SOLANA_RPC_URL: s.rpcServer.url,
      FACILITATOR_URLS: s.facilitators.map((f) => f.url).join(','),
      REDIS_URL: redis.url,
      FACILITATOR_TIMEOUT_MS: '10000',
    };
    [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
    await s?.close();
  });

  const paymentFor = async (base: string, path: string) => {
    const offer = await offerOf(base + path);
    return encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
  };

  it('a payment settled through A replays its stored response on B, and buys nothing else there', async () => {
    const path = `/scan/wallet/${s.payer.address}`;
    const header = await paymentFor(a.url, path);
    const before = await s.usdcBalance(s.payTo);
    const sold = await pay(a.url + path, header);
    assert.equal(sold.status, 200);
    const body = await sold.text();
    const replay = await pay(b.url + path, header);
    assert.equal(replay.status, 200);
    assert.equal(await replay.text(), body, 'A’s response, byte for byte');
    const other = await pay(`${b.url}/scan/wallet/${OTHER_WALLET}`, header);
    assert.equal(other.status, 402);
    assert.equal(refusalCode(await jsonOf(other)), 'payment_paid_for_another');
    assert.equal(await s.usdcBalance(s.payTo), before + PRICE);
  });

  it('a result scanned through A is served cached through B', async () => {
    const path = `/scan/wallet/${OTHER_WALLET}`;
    const first = await pay(a.url + path, await paymentFor(a.url, path));
    assert.equal(first.status, 200);
    assert.equal((await jsonOf(first)).cached, false);
    const second = await pay(b.url + path, await paymentFor(b.url, path));
    const body = await jsonOf(second);
    assert.equal(second.status, 200);
    assert.equal(body.cached, true, 'B did not scan again');
  });

  it('both report their payment state in Redis on /health', async () => {
    for (const api of [a, b]) {
      const health = await jsonOf(await fetch(`${api.url}/health`));
      assert.equal(health.checks.payment_state.status, 'ok');
      assert.match(health.checks.payment_state.detail, /^Redis at 127\.0\.0\.1:/);
    }
  });
});
