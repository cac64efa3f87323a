/**
 * The RPC metrics on /metrics under injected faults: fault-injecting proxies sit between the
 * service and the sandbox RPC, and spoil only the scanner's own read (the `getAccountInfo` of a
 * fresh wallet) so the payment path keeps working. After one paid scan each metric has moved by
 * exactly what the proxy did: one `429`, `error`, `timeout` or `mixed_up` call, one retry where a
 * round was asked again, and every other request the proxy forwarded counted `ok` under its
 * method and endpoint (host and position, never the path). A breaker that opens and later closes
 * counts each change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyPairSigner } from '@solana/kit';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { type Fault, type FaultProxy, PASS, startFaultProxy } from '../helpers/fault-proxy.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { type Labels, sampleSum, sampleValue } from '../helpers/prometheus.js';

const SCANNER_READ = 'getAccountInfo';
const OUTCOMES = ['ok', 'rpc_error', '429', 'error', 'timeout', 'mixed_up', 'abandoned'] as const;
type Outcome = (typeof OUTCOMES)[number];

interface Instance {
  readonly url: string;
  readonly metricsUrl: string;
  readonly proxies: readonly FaultProxy[];
}

/** What /metrics and each proxy had counted at one moment. */
interface Snapshot {
  readonly text: string;
  readonly seen: readonly ReadonlyMap<string, number>[];
}

async function snapshot(instance: Instance): Promise<Snapshot> {
  const text = await (await fetch(instance.metricsUrl)).text();
  return { text, seen: instance.proxies.map((p) => new Map(p.seen)) };
}

const position = (i: number) => String(i + 1);
const host = (proxy: FaultProxy) => new URL(proxy.url).host;

/** How far `name` with exactly `labels` moved between two snapshots. */
const delta = (a: Snapshot, b: Snapshot, name: string, labels: Labels) =>
  sampleValue(b.text, name, labels) - sampleValue(a.text, name, labels);

/** The calls of `method` to endpoint `i` counted between two snapshots, by outcome. */
function callsMoved(instance: Instance, a: Snapshot, b: Snapshot, i: number, method: string) {
  const labels = { method, host: host(instance.proxies[i]!), position: position(i) };
  return Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, delta(a, b, 'risk_scan_rpc_calls_total', { ...labels, outcome })]),
  ) as Record<Outcome, number>;
}

/**
 * Every request proxy `i` saw between the snapshots is one call counted under its method and
 * that endpoint, and one observation of its duration; nothing else is counted there.
 */
function assertEveryRequestCounted(instance: Instance, a: Snapshot, b: Snapshot, i: number): void {
  const seen = b.seen[i]!;
  const labels = { host: host(instance.proxies[i]!), position: position(i) };
  for (const [method, count] of seen) {
    const sent = count - (a.seen[i]!.get(method) ?? 0);
    const moved = callsMoved(instance, a, b, i, method);
    const counted = OUTCOMES.reduce((sum, o) => sum + moved[o], 0);
    assert.equal(counted, sent, `${method} at position ${position(i)}: calls counted vs requests seen`);
    const timed = delta(a, b, 'risk_scan_rpc_call_duration_seconds_count', { method, ...labels });
    assert.equal(timed, sent, `${method} at position ${position(i)}: durations observed`);
  }
  const total = (s: Snapshot) => sampleSum(s.text, 'risk_scan_rpc_calls_total', labels);
  const sentTotal = [...seen.values()].reduce((x, y) => x + y, 0);
  const sentBefore = [...a.seen[i]!.values()].reduce((x, y) => x + y, 0);
  assert.equal(total(b) - total(a), sentTotal - sentBefore, `all calls at position ${position(i)}`);
}

/** Pays for a scan of a fresh wallet (never cached) whose own `n`-th read gets `faultOf(n)`. */
async function scanWithFault(
  s: PaidSandbox,
  instance: Instance,
  faultOf: (n: number) => Fault,
  proxy: FaultProxy = instance.proxies[0]!,
): Promise<Response> {
  const subject = (await generateKeyPairSigner()).address;
  let reads = 0;
  proxy.setPlan(({ method, params }) =>
    method === SCANNER_READ && Array.isArray(params) && params[0] === subject
      ? faultOf(++reads)
      : { kind: 'pass' },
  );
  const url = `${instance.url}/scan/wallet/${subject}`;
  const offer = await offerOf(url);
  const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
  return pay(url, header);
}

const firstOnly =
  (fault: Fault) =>
  (n: number): Fault =>
    n === 1 ? fault : { kind: 'pass' };

async function startInstance(
  s: PaidSandbox,
  proxies: readonly FaultProxy[],
  env: Record<string, string> = {},
): Promise<Instance> {
  const started = await s.startInstance(
    // The real wallet scanner: its reads carry the scan's deadline, within which a timeout is retried.
    { mode: selling({ ...probeScanners(), wallet: SCANNERS.wallet }) },
    {
      SOLANA_RPC_URL: proxies[0]!.url,
      ...(proxies.length > 1
        ? {
            SOLANA_RPC_URLS: proxies
              .slice(1)
              .map((p) => p.url)
              .join(','),
          }
        : {}),
      RPC_TIMEOUT_MS: '2000', // generous: a loaded machine's honest answers are never cut off
      METRICS_PORT: '0',
      ...env,
    },
  );
  return { url: started.url, metricsUrl: started.metricsUrl!, proxies };
}

describe('RPC metrics under faults', { timeout: 120_000 }, () => {
  let s: PaidSandbox;
  const proxies: FaultProxy[] = [];
  const proxy = async () => {
    const p = await startFaultProxy(s.rpcServer.url);
    proxies.push(p);
    return p;
  };
  before(async () => {
    s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(async () => {
    await s?.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  describe('one endpoint: a transient fault is retried', () => {
    let instance: Instance;
    before(async () => {
      instance = await startInstance(s, [await proxy()]);
    });

    const cases: { name: string; fault: Fault; outcome: Outcome }[] = [
      { name: 'a 429', fault: { kind: '429' }, outcome: '429' },
      { name: 'a 500', fault: { kind: '500' }, outcome: 'error' },
      { name: 'a dropped connection', fault: { kind: 'reset' }, outcome: 'error' },
      { name: 'no answer within RPC_TIMEOUT_MS', fault: { kind: 'hang' }, outcome: 'timeout' },
    ];
    for (const { name, fault, outcome } of cases) {
      it(`${name} then an answer: one ${outcome} call, one retry, every other request ok`, async () => {
        const a = await snapshot(instance);
        const res = await scanWithFault(s, instance, firstOnly(fault));
        assert.equal(res.status, 200, await res.text());
        const b = await snapshot(instance);
        const sent = (b.seen[0]!.get(SCANNER_READ) ?? 0) - (a.seen[0]!.get(SCANNER_READ) ?? 0);
        const expected = Object.fromEntries(OUTCOMES.map((o) => [o, 0]));
        assert.deepEqual(callsMoved(instance, a, b, 0, SCANNER_READ), {
          ...expected,
          ok: sent - 1,
          [outcome]: 1,
        });
        assert.equal(delta(a, b, 'risk_scan_rpc_retries_total', { method: SCANNER_READ }), 1);
        assert.equal(
          sampleSum(b.text, 'risk_scan_rpc_retries_total') - sampleSum(a.text, 'risk_scan_rpc_retries_total'),
          1,
        );
        assertEveryRequestCounted(instance, a, b, 0);
      });
    }
  });

  it('two endpoints: a mixed-up answer (another request’s id) fails over to the second, no retry', async () => {
    const instance = await startInstance(s, [await proxy(), await proxy()]);
    const a = await snapshot(instance);
    const res = await scanWithFault(s, instance, () => ({ kind: 'wrong-id' }));
    assert.equal(res.status, 200, await res.text());
    const b = await snapshot(instance);
    assert.equal(callsMoved(instance, a, b, 0, SCANNER_READ).mixed_up, 1);
    assert.deepEqual(callsMoved(instance, a, b, 1, SCANNER_READ), {
      ok: 1,
      rpc_error: 0,
      '429': 0,
      error: 0,
      timeout: 0,
      mixed_up: 0,
      abandoned: 0,
    });
    assert.equal(
      sampleSum(b.text, 'risk_scan_rpc_retries_total') - sampleSum(a.text, 'risk_scan_rpc_retries_total'),
      0,
    );
    assert.equal(
      sampleSum(b.text, 'risk_scan_rpc_breaker_transitions_total') -
        sampleSum(a.text, 'risk_scan_rpc_breaker_transitions_total'),
      0,
      'one failure opens no breaker (RPC_BREAKER_FAILURES 5)',
    );
    assertEveryRequestCounted(instance, a, b, 0);
    assertEveryRequestCounted(instance, a, b, 1);
  });

  it('a breaker that opens, then closes after a good probe, counts each change', async () => {
    const failing = await proxy();
    const instance = await startInstance(s, [failing, await proxy()], {
      RPC_BREAKER_FAILURES: '1',
      RPC_BREAKER_HALF_OPEN_MS: '1000',
    });
    const transitions = (snap: Snapshot, state: string) =>
      sampleValue(snap.text, 'risk_scan_rpc_breaker_transitions_total', {
        host: host(failing),
        position: '1',
        state,
      });
    const a = await snapshot(instance);
    assert.deepEqual(
      ['open', 'half_open', 'closed'].map((state) => transitions(a, state)),
      [0, 0, 0],
      'shown at 0 before any change',
    );
    failing.setPlan(() => ({ kind: '500' }));
    const res = await scanWithFault(s, instance, () => ({ kind: 'pass' }), instance.proxies[1]);
    assert.equal(res.status, 200, await res.text());
    const b = await snapshot(instance);
    // Each request that reached the failing endpoint opened its breaker: the first from closed,
    // any later one as a half-open probe (should the call outlast RPC_BREAKER_HALF_OPEN_MS).
    const failed = [...b.seen[0]!.values()].reduce((x, y) => x + y, 0);
    assert.ok(failed >= 1);
    assert.equal(sampleSum(b.text, 'risk_scan_rpc_calls_total', { position: '1', outcome: 'error' }), failed);
    assert.deepEqual(
      ['open', 'half_open', 'closed'].map((state) => transitions(b, state)),
      [failed, failed - 1, 0],
    );
    assertEveryRequestCounted(instance, a, b, 0);
    assertEveryRequestCounted(instance, a, b, 1);

    failing.setPlan(PASS);
    await sleep(1_200); // past the half-open delay (a lower bound, not a timing check)
    const again = await scanWithFault(s, instance, () => ({ kind: 'pass' }), instance.proxies[1]);
    assert.equal(again.status, 200, await again.text());
    const c = await snapshot(instance);
    assert.deepEqual(
      ['open', 'half_open', 'closed'].map((state) => transitions(c, state) - transitions(b, state)),
      [0, 1, 1],
    );
  });
});
