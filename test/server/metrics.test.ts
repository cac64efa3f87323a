/**
 * METRICS_PORT: a Prometheus /metrics listener of its own, off by default. Each step below is
 * followed by a scrape, and the counters must have moved by exactly what the step did.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, v2Payment } from '../helpers/payments.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';
import { type Labels, sampleValue } from '../helpers/prometheus.js';
import { startTestService, TEST_PAY_TO } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_ROUTE = '/scan/token/:mint';
const TOKEN_PRICE = 300_000;

describe('metrics (METRICS_PORT)', () => {
  let sandbox: PaidSandbox;
  let metricsUrl: string;
  const scrape = async () => {
    const res = await fetch(metricsUrl);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    return res.text();
  };
  /** How much each of `probes` moved while `step` ran. */
  async function moved(step: () => Promise<void>, probes: Record<string, [string, Labels?]>) {
    const before = await scrape();
    await step();
    const after = await scrape();
    return Object.fromEntries(
      Object.entries(probes).map(([key, [name, labels]]) => [
        key,
        sampleValue(after, name, labels) - sampleValue(before, name, labels),
      ]),
    );
  }
  const requests = (status: number): [string, Labels] => [
    'risk_scan_http_requests_total',
    { route: TOKEN_ROUTE, status: String(status) },
  ];
  const payments = (outcome: string): [string, Labels] => ['risk_scan_payments_total', { outcome }];

  before(async () => {
    sandbox = await startPaidSandbox({ METRICS_PORT: '0' }, { mode: selling(probeScanners()) });
    metricsUrl = sandbox.server.metricsUrl!;
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    assert.notEqual(new URL(metricsUrl).port, new URL(sandbox.url).port, 'a listener of its own');
  });
  after(async () => {
    await sandbox?.close();
  });

  it('an unpaid request (the unpaid lane) counts one 402 on its route template', async () => {
    const delta = await moved(
      async () => {
        assert.equal((await fetch(`${sandbox.url}/scan/token/${USDC}`)).status, 402);
      },
      { offers: requests(402), invalid: requests(400) },
    );
    assert.deepEqual(delta, { offers: 1, invalid: 0 });
  });

  it('a malformed parameter counts one 400, timed, and no payment', async () => {
    const delta = await moved(
      async () => {
        assert.equal((await fetch(`${sandbox.url}/scan/token/not-base58!`)).status, 400);
      },
      {
        invalid: requests(400),
        timed: ['risk_scan_http_request_duration_seconds_count', { route: TOKEN_ROUTE, status: '400' }],
        refused: payments('refused'),
      },
    );
    assert.deepEqual(delta, { invalid: 1, timed: 1, refused: 0 });
  });

  it('a paid call: verified, settled, revenue, a cache miss, a scan; its replay adds only a replay', async () => {
    const url = `${sandbox.url}/scan/token/${USDC}`;
    const offer = await offerOf(url);
    const header = encodeHeader(
      await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl),
    );
    const probes: Record<string, [string, Labels?]> = {
      ok: requests(200),
      verified: payments('verified'),
      settled: payments('settled'),
      replayed: payments('replayed'),
      failed: payments('failed'),
      revenue: ['risk_scan_revenue_usdc_atomic_total', { endpoint: 'token' }],
      misses: ['risk_scan_cache_lookups_total', { result: 'miss' }],
      scans: ['risk_scan_scan_duration_seconds_count', { endpoint: 'token', outcome: 'ok' }],
    };
    const paid = await moved(async () => {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(res.status, 200, await res.text());
    }, probes);
    assert.deepEqual(paid, {
      ok: 1,
      verified: 1,
      settled: 1,
      replayed: 0,
      failed: 0,
      revenue: TOKEN_PRICE,
      misses: 1,
      scans: 1,
    });
    const replay = await moved(async () => {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(res.status, 200, await res.text());
    }, probes);
    assert.deepEqual(replay, {
      ok: 1,
      verified: 0,
      settled: 0,
      replayed: 1,
      failed: 0,
      revenue: 0,
      misses: 0,
      scans: 0,
    });
  });

  it('serves the default metrics (event-loop delay among them) and nothing but /metrics', async () => {
    const text = await scrape();
    assert.ok(text.includes('risk_scan_nodejs_eventloop_lag_p99_seconds'), 'event-loop delay');
    assert.ok(text.includes('# TYPE risk_scan_http_requests_total counter'));
    const other = await fetch(new URL('/health', metricsUrl));
    assert.equal(other.status, 404);
    await other.text();
  });
});

describe('metrics while the service drains', () => {
  it('stay scrapeable until the last paid call in flight has its response, and close with the service', async () => {
    let release!: () => void;
    let scanning!: () => void;
    const started = new Promise<void>((r) => {
      scanning = r;
    });
    const held = new Promise<void>((r) => {
      release = r;
    });
    const sandbox = await startPaidSandbox(
      { METRICS_PORT: '0' },
      {
        mode: selling(
          probeScanners(async (subject, context) => {
            scanning();
            await held;
            return probeScanner(subject, context);
          }),
        ),
      },
    );
    try {
      const metricsUrl = sandbox.server.metricsUrl!;
      const url = `${sandbox.url}/scan/token/${USDC}`;
      const offer = await offerOf(url);
      const header = encodeHeader(
        await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl),
      );
      const paid = fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
      await started;
      const closing = sandbox.server.close();
      const during = await fetch(metricsUrl);
      assert.equal(during.status, 200, 'an operator can still watch the drain');
      assert.match(await during.text(), /risk_scan_http_requests_total/);
      release();
      const res = await paid;
      assert.equal(res.status, 200, await res.text());
      await closing;
      await assert.rejects(fetch(metricsUrl), 'the metrics listener closes with the service');
    } finally {
      release();
      await sandbox.close();
    }
  });
});

describe('metrics are off by default', () => {
  it('no METRICS_PORT: no registry and no listener', async () => {
    const svc = await startTestService({});
    try {
      assert.equal(svc.service.metrics, null);
      assert.equal(svc.running.metricsUrl, undefined);
    } finally {
      await svc.close();
    }
  });

  it('METRICS_PORT is a validated port', () => {
    const base = { RISK_SCAN_MODE: 'mainnet', PAY_TO: TEST_PAY_TO };
    assert.equal(parseConfig(base).metricsPort, null);
    assert.equal(parseConfig({ ...base, METRICS_PORT: '9464' }).metricsPort, 9464);
    for (const bad of ['abc', '65536', '-1', '0x10']) {
      assert.throws(() => parseConfig({ ...base, METRICS_PORT: bad }), ConfigError, bad);
    }
  });
});
