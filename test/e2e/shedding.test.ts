/**
 * Load shedding under paid load, with the real payment path: MAX_INFLIGHT_PAID is 2 and the scans
 * of two subjects are slowed at the RPC (a latency fault at the proxy in front of the sandbox
 * RPC). While those two paid calls are in flight, three more paid calls are refused with 503,
 * Retry-After and a JSON reason; the payer is charged only for the two; discovery, the OpenAPI
 * document and unpaid 402 offers still answer. A refused payment was never claimed: sent again
 * afterwards it buys exactly one result (and then replays that result, at no further charge).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyPairSigner } from '@solana/kit';
import { selling } from '../../src/service/index.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';

const PRICE = 20_000n; // /scan/wallet
/** Long enough for the refused calls to be answered while the slow ones hold their slots. */
const SLOW_SCAN_MS = 4_000;

/** Resolves once `held()` reaches `count`. */
async function until(held: () => number, count: number): Promise<void> {
  while (held() < count) await sleep(20);
}

describe('load shedding of paid calls', { timeout: 90_000 }, () => {
  it('beyond MAX_INFLIGHT_PAID: 503 + Retry-After before payment, nothing charged or claimed, discovery up', async () => {
    const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const slowSubjects = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const slow = new Set(slowSubjects.map((k) => k.address as string));
    let held = 0;
    const proxy = await startFaultProxy(s.rpcServer.url, ({ method, params }) => {
      const subject = Array.isArray(params) ? params[0] : undefined;
      if (method !== 'getAccountInfo' || !slow.has(subject as string)) return { kind: 'pass' };
      held++;
      return { kind: 'latency', ms: SLOW_SCAN_MS };
    });
    try {
      const instance = await s.startInstance(
        { mode: selling(probeScanners()) },
        {
          SOLANA_RPC_URL: proxy.url,
          MAX_INFLIGHT_PAID: '2',
          SHED_RETRY_AFTER_SECONDS: '3',
          SCAN_TIMEOUT_MS: '15000',
          RPC_TIMEOUT_MS: '10000',
          METRICS_PORT: '0',
        },
      );
      const paymentFor = async (subject: string) => {
        const url = `${instance.url}/scan/wallet/${subject}`;
        const offer = await offerOf(url);
        const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
        return { url, header };
      };
      const quick = await Promise.all(
        [s.payTo, ...s.facilitators.map((f) => f.feePayer)].map((subject) => paymentFor(subject)),
      );
      const slowCalls = await Promise.all(slowSubjects.map((k) => paymentFor(k.address)));
      const before = await s.balances();

      const inFlight = slowCalls.map(({ url, header }) => pay(url, header));
      await until(() => held, 2); // both slow calls hold their slots, in their scans

      const refused = await Promise.all(quick.map(({ url, header }) => pay(url, header)));
      for (const res of refused) {
        const text = await res.text();
        assert.equal(res.status, 503, text);
        assert.equal(res.headers.get('retry-after'), '3');
        assert.match(
          res.headers.get('access-control-expose-headers') ?? '',
          /Retry-After/,
          'browsers may read when to retry',
        );
        const body = JSON.parse(text);
        assert.equal(body.error, 'service_unavailable');
        assert.equal(body.reason, 'inflight');
        assert.equal(typeof body.request_id, 'string');
        assert.match(body.message, /did not use your payment/);
        assert.equal(body.risk_score, undefined);
      }
      const metrics = await (await fetch(instance.metricsUrl!)).text();
      assert.match(metrics, /risk_scan_shed_requests_total\{reason="inflight"\} 3\n/);
      assert.match(metrics, /risk_scan_paid_calls_inflight 2\n/);
      // The free paths stay up while paid calls are refused.
      assert.equal((await fetch(`${instance.url}/health`)).status, 200);
      assert.equal((await fetch(`${instance.url}/openapi.json`)).status, 200);
      assert.equal((await fetch(`${instance.url}/scan/wallet/${s.payTo}`)).status, 402);

      for (const res of await Promise.all(inFlight)) assert.equal(res.status, 200, await res.text());
      assert.deepEqual(
        await s.balances(),
        { payer: before.payer - 2n * PRICE, payTo: before.payTo + 2n * PRICE },
        'charged for the two calls served, not for the three refused',
      );

      // A refused payment was never claimed: it buys one result now, and only one.
      const { url, header } = quick[0]!;
      const first = await pay(url, header);
      const firstText = await first.text();
      assert.equal(first.status, 200, firstText);
      const again = await pay(url, header);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), firstText, 'the same result, replayed');
      assert.deepEqual(await s.balances(), {
        payer: before.payer - 3n * PRICE,
        payTo: before.payTo + 3n * PRICE,
      });
    } finally {
      await s.close();
      await proxy.close();
    }
  });

  it('while shutting down: a new paid call gets 503 before payment, the one in flight is delivered before close ends', async () => {
    let entered = () => {};
    const scanning = new Promise<void>((r) => {
      entered = r;
    });
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    // The first scan is held until the test lets it go (a hang injected in the scanner).
    let first = true;
    const s = await startPaidSandbox(
      {},
      {
        mode: selling(
          probeScanners(async (subject, ctx) => {
            if (first) {
              first = false;
              entered();
              await released;
            }
            return probeScanner(subject, ctx);
          }),
        ),
      },
    );
    try {
      const paymentFor = async (subject: string) => {
        const url = `${s.url}/scan/wallet/${subject}`;
        const offer = await offerOf(url);
        const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
        return { url, header };
      };
      const held = await paymentFor(s.payer.address);
      const late = await paymentFor(s.payTo);
      const before = await s.balances();
      const inFlight = pay(held.url, held.header);
      await scanning;

      let closed = false;
      const closing = s.server.close().then(() => {
        closed = true;
      });
      // A request that reaches the app now (on a connection accepted before the close).
      const refused = await s.service.app.request(late.url, {
        headers: { 'PAYMENT-SIGNATURE': late.header },
      });
      const body = JSON.parse(await refused.text());
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '2');
      assert.equal(body.error, 'service_unavailable');
      assert.equal(body.reason, 'shutting_down');
      // The same payment over MCP is refused the same way, before it is claimed.
      const mcp = await s.service.app.request(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'scan_wallet',
            arguments: { address: s.payTo },
            _meta: { 'x402/payment': late.header },
          },
        }),
      });
      const answer = JSON.parse(await mcp.text());
      assert.equal(answer.result?.isError, true, JSON.stringify(answer));
      assert.match(answer.result.content[0].text, /service_unavailable: This instance is shutting down/);
      assert.equal(closed, false, 'the paid call in flight holds the close');

      release();
      const delivered = await inFlight;
      assert.equal(delivered.status, 200, await delivered.text());
      await closing;
      assert.deepEqual(await s.balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
    } finally {
      release();
      await s.close();
    }
  });
});
