/**
 * The RPC circuit breakers in the running service, configured from the environment: two RPC
 * endpoints, the first behind a fault-injecting proxy that answers 500 to everything. After
 * RPC_BREAKER_FAILURES failures no request reaches it any more (counted at the proxy) while paid
 * scans keep answering 200 through the second, each settled once; the breaker shows as open in
 * the metrics. Once the fault is gone and RPC_BREAKER_HALF_OPEN_MS has passed, one probe reaches
 * the first endpoint again, succeeds, and the breaker closes.
 *
 * The breaker must stay open while three paid scans run: its half-open delay is scaled from a
 * paid scan measured on this machine in this run (BASELINE_FACTOR times it), so a busy machine
 * stretches the delay with the scans instead of half-opening the breaker between them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { selling } from '../../src/service/index.js';
import { PASS, startFaultProxy } from '../helpers/fault-proxy.js';
import { startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';

const PRICE = 20_000n; // /scan/wallet
const FAILURES = 3;
/** The half-open delay, in paid scans as long as the measured one (the open phase runs three). */
const BASELINE_FACTOR = 20;

const requestsSeen = (seen: ReadonlyMap<string, number>) => [...seen.values()].reduce((a, b) => a + b, 0);

describe('RPC circuit breakers in the service', { timeout: 600_000 }, () => {
  it('open after the configured failures, the scan answers 200 through the other endpoint, and close after a good probe', async () => {
    const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const failing = await startFaultProxy(s.rpcServer.url, () => ({ kind: '500' }));
    const spare = await startFaultProxy(s.rpcServer.url);
    try {
      const buyOn = (api: string) => async (subject: string) => {
        const url = `${api}/scan/wallet/${subject}`;
        const offer = await offerOf(url);
        const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
        const res = await pay(url, header);
        const text = await res.text();
        assert.equal(res.status, 200, text);
        assert.equal(typeof JSON.parse(text).risk_score, 'number');
      };
      const started = performance.now();
      await buyOn(s.url)(s.payTo);
      const HALF_OPEN_MS = Math.max(1_000, Math.ceil(BASELINE_FACTOR * (performance.now() - started)));
      const instance = await s.startInstance(
        { mode: selling(probeScanners()) },
        {
          SOLANA_RPC_URL: failing.url,
          SOLANA_RPC_URLS: spare.url,
          RPC_BREAKER_FAILURES: String(FAILURES),
          RPC_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS),
          METRICS_PORT: '0',
        },
      );
      const buy = buyOn(instance.url);
      const subjects = [s.payer.address, s.payTo, ...s.facilitators.map((f) => f.feePayer)];
      const before = await s.balances();
      for (const subject of subjects.slice(0, 3)) await buy(subject);
      assert.equal(requestsSeen(failing.seen), FAILURES, 'nothing reached the failing endpoint once open');
      assert.deepEqual(await s.balances(), {
        payer: before.payer - 3n * PRICE,
        payTo: before.payTo + 3n * PRICE,
      });
      const metrics = await (await fetch(instance.metricsUrl!)).text();
      assert.match(metrics, /risk_scan_circuit_state\{kind="rpc",host="127\.0\.0\.1:\d+",position="1"\} 1\n/);
      assert.match(metrics, /risk_scan_circuit_state\{kind="rpc",host="127\.0\.0\.1:\d+",position="2"\} 0\n/);
      // Facilitators show their health on the same gauge: both answer, so both closed.
      assert.equal(metrics.match(/risk_scan_circuit_state\{kind="facilitator",[^}]*\} 0\n/g)?.length, 2);

      failing.setPlan(PASS);
      await sleep(HALF_OPEN_MS + 200); // past the half-open delay (a lower bound, not a timing check)
      await buy(subjects[3]!);
      assert.ok(requestsSeen(failing.seen) > FAILURES, 'the half-open probe reached the recovered endpoint');
      const after = await (await fetch(instance.metricsUrl!)).text();
      assert.match(after, /risk_scan_circuit_state\{kind="rpc",host="127\.0\.0\.1:\d+",position="1"\} 0\n/);
    } finally {
      await s.close();
      await Promise.all([failing.close(), spare.close()]);
    }
  });
});
