/**
 * A burst of paid pump.fun and token scans, paid with the official x402 client, against
 * `risk-scan sandbox` whose RPC answers as a paid provider plan (50 requests a second, then
 * HTTP 429). Without a stated limit the service meets the plan's 429s; with RPC_RATE_LIMIT=50 it
 * shapes its reads under the plan and meets none: every scan is delivered, settled, with no
 * `*_UNAVAILABLE` flag, and /metrics shows the reads that waited for their turn.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PaidPlanSandbox, type PaidScan, startPaidPlanSandbox } from '../helpers/paid-plan-sandbox.js';
import { sampleSum } from '../helpers/prometheus.js';

/** Distinct subjects scanned at once: several hundred reads, many times the plan's second. */
const BURST = 24;

async function burst(plan: PaidPlanSandbox): Promise<PaidScan[]> {
  const subjects = plan.subjects.slice(0, BURST);
  assert.ok(
    subjects.length >= 12,
    `the manifest has pump.fun and token subjects enough (${subjects.length})`,
  );
  return Promise.all(subjects.map((s) => plan.scan(s)));
}

const unavailableOf = (scans: readonly PaidScan[]) =>
  scans.flatMap((s) =>
    s.flags.filter((f) => f.endsWith('_UNAVAILABLE')).map((f) => `${s.subject.name}: ${f}`),
  );

describe('a burst of paid scans under the paid-plan RPC profile (50 requests a second)', {
  timeout: 600_000,
}, () => {
  it('meets the plan’s 429s when the operator states no limit', async (t) => {
    // The plan's clock stands still, so its 50 tokens are all the burst gets however slowly this
    // machine sends it: the 429s do not depend on how busy it is (the bench row shows them at
    // the plan's real rate).
    const plan = await startPaidPlanSandbox({}, { planClock: () => 0 });
    try {
      const scans = await burst(plan);
      const met = plan.rateLimited();
      const failed = scans.filter((s) => s.status !== 200).length;
      t.diagnostic(
        `${scans.length} scans: ${met} HTTP 429s met, ${failed} not delivered, ${unavailableOf(scans).length} *_UNAVAILABLE flags`,
      );
      assert.ok(met > 0, 'the burst went past the plan’s 50 calls');
      const charged = scans.filter((s) => s.status !== 200 && s.receipt);
      assert.deepEqual(charged, [], 'a scan not delivered is not settled');
    } finally {
      await plan.close();
    }
  });

  it('meets none with RPC_RATE_LIMIT=50: every scan delivered whole, the waits on /metrics', async (t) => {
    const plan = await startPaidPlanSandbox({ RPC_RATE_LIMIT: '50', METRICS_PORT: '0' });
    try {
      const scans = await burst(plan);
      const notDelivered = scans.filter((s) => s.status !== 200 || !s.receipt);
      assert.deepEqual(
        notDelivered.map((s) => `${s.subject.name}: ${s.status}`),
        [],
        'every paid scan answered 200 with its settlement receipt',
      );
      assert.deepEqual(unavailableOf(scans), [], 'every read was served');
      assert.equal(plan.rateLimited(), 0, 'no HTTP 429 from the plan');
      const metrics = await (await fetch(plan.sandbox.api.metricsUrl!)).text();
      assert.equal(sampleSum(metrics, 'risk_scan_rpc_calls_total', { outcome: '429' }), 0);
      const waited = sampleSum(metrics, 'risk_scan_rpc_queue_wait_seconds_sum', { priority: 'paid' });
      const reads = sampleSum(metrics, 'risk_scan_rpc_queue_wait_seconds_count', { priority: 'paid' });
      t.diagnostic(
        `${scans.length} scans: ${reads} reads took their turn, ${waited.toFixed(1)} s of waiting in all`,
      );
      assert.ok(waited > 0, 'reads waited for their turn under the limit');
      assert.ok(reads >= sampleSum(metrics, 'risk_scan_rpc_calls_total'), 'every read sent took a turn');
    } finally {
      await plan.close();
    }
  });
});
