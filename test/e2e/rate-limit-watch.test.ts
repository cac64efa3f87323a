/**
 * The service asks the RPC as a watch re-scan where it re-scans a watch: under RPC_RATE_LIMIT a
 * paid watch's baseline scan takes its turns as a paid scan, and the periodic re-scan of the
 * watch takes them as a re-scan (priority `watch` on /metrics), behind any paid scan's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { sampleSum } from '../helpers/prometheus.js';
import { jsonOf } from '../helpers/service.js';
import {
  postWatch,
  startWatchSandbox,
  UNHEARD_WEBHOOK,
  type WatchSandbox,
} from '../helpers/watch-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** A bound on a hang: the periodic check comes every 5 s. */
const HANG_MS = 120_000;

describe('a watch re-scan under RPC_RATE_LIMIT', { timeout: 300_000 }, () => {
  let watching: WatchSandbox;
  let metricsUrl: string;

  before(async () => {
    watching = await startWatchSandbox(
      { maxWatches: 10, maxWatchesPerSubject: 10 },
      { RPC_RATE_LIMIT: '50', METRICS_PORT: '0', WATCH_RESCAN_INTERVAL_SECONDS: '5', SOLANA_WS_URL: 'none' },
    );
    metricsUrl = watching.sandbox.server.metricsUrl!;
  });
  after(() => watching?.close());

  const waits = async (priority: 'paid' | 'watch') =>
    sampleSum(await (await fetch(metricsUrl)).text(), 'risk_scan_rpc_queue_wait_seconds_count', { priority });

  it('takes its turns as a re-scan, the paid baseline as a paid scan', async () => {
    const { sandbox } = watching;
    const client = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
    const order = { kind: 'token', subject: USDC_MINT, webhook: UNHEARD_WEBHOOK, hours: 1 };
    const res = await postWatch(sandbox.url, order, { fetch: wrapFetchWithPayment(fetch, client) });
    assert.equal(res.status, 200, JSON.stringify(await jsonOf(res)));
    assert.ok((await waits('paid')) > 0, 'the baseline scan asked as a paid scan');

    const started = Date.now();
    while ((await waits('watch')) === 0) {
      assert.ok(Date.now() - started < HANG_MS, 'the periodic re-scan asked the RPC as a re-scan');
      await sleep(250);
    }
  });
});
