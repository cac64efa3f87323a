/**
 * The facilitator metrics on /metrics: verify, settle and supported calls by facilitator (host and
 * position in FACILITATOR_URLS) and outcome, each timed. Paid calls go to the sandbox's two real
 * facilitators, through a fetch that injects a fault into the call a test names; /supported is
 * probed on stand-in facilitators whose answers a test switches, and counted against the
 * requests each one saw.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type StubBehaviour, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { type FaultPlan, faultyFetch } from '../helpers/faulty-facilitator-fetch.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { sampleValue } from '../helpers/prometheus.js';
import { startTestService, TEST_FEE_PAYER, TEST_FEE_PAYER_2 } from '../helpers/service.js';

const OUTCOMES = ['ok', 'refused', 'timeout', 'unreachable', 'http_error', 'garbage'] as const;
type Operation = 'verify' | 'settle' | 'supported';

/** What /metrics counted for facilitator `url` (at 1-based `position`), per operation and outcome. */
function counted(text: string, url: string, position: number) {
  const labels = { host: new URL(url).host, position: String(position) };
  const of = (operation: Operation) => ({
    ...Object.fromEntries(
      OUTCOMES.map((outcome) => [
        outcome,
        sampleValue(text, 'risk_scan_facilitator_calls_total', { operation, ...labels, outcome }),
      ]),
    ),
    timed: sampleValue(text, 'risk_scan_facilitator_call_duration_seconds_count', { operation, ...labels }),
  });
  return { verify: of('verify'), settle: of('settle'), supported: of('supported') };
}

type Counted = ReturnType<typeof counted>;

/** `after` less `before`, field by field. */
function minus(after: Counted, before: Counted): Counted {
  const sub = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - (b[k] ?? 0)]));
  return {
    verify: sub(after.verify, before.verify),
    settle: sub(after.settle, before.settle),
    supported: sub(after.supported, before.supported),
  } as Counted;
}

/** Zero everywhere but `moved`. */
function only(
  moved: Partial<Record<Operation, Partial<Record<(typeof OUTCOMES)[number], number>>>>,
): Counted {
  const row = (operation: Operation) => {
    const r = { ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])), ...moved[operation] } as Record<
      string,
      number
    >;
    return { ...r, timed: OUTCOMES.reduce((sum, o) => sum + (r[o] ?? 0), 0) };
  };
  return { verify: row('verify'), settle: row('settle'), supported: row('supported') } as Counted;
}

describe('facilitator metrics: verify and settle', { timeout: 120_000 }, () => {
  let s: PaidSandbox;
  let url: string;
  let metricsUrl: string;
  /** The fetch of the service's facilitator calls: faulty while a test pays. */
  let current: typeof fetch = fetch;
  const switchable = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    current(input, init)) as typeof fetch;

  before(async () => {
    s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const instance = await s.startInstance(
      { mode: selling(probeScanners()), facilitatorFetch: switchable },
      { METRICS_PORT: '0' },
    );
    url = `${instance.url}/scan/wallet/${s.payTo}`;
    metricsUrl = instance.metricsUrl!;
  });
  after(async () => {
    await s?.close();
  });

  const scrape = async () => (await fetch(metricsUrl)).text();

  /**
   * Pays once with `fault` on the facilitator calls; answers the status and what the metrics of
   * the facilitator the offer named moved (the other one must not move).
   */
  async function payWith(fault: FaultPlan): Promise<{ status: number; moved: Counted }> {
    const offer = await offerOf(url);
    const named = s.facilitators.findIndex((f) => f.feePayer === offer.v2.extra?.feePayer);
    assert.ok(named >= 0, 'the offer names a sandbox facilitator');
    const other = 1 - named;
    const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
    const before = await scrape();
    current = faultyFetch({ ...fault, times: 1 });
    const res = await pay(url, header);
    await res.text();
    current = fetch;
    const after = await scrape();
    const f = (i: number, text: string) => counted(text, s.facilitators[i]!.url, i + 1);
    const otherMoved = minus(f(other, after), f(other, before));
    assert.deepEqual(
      { verify: otherMoved.verify, settle: otherMoved.settle },
      {
        verify: only({}).verify,
        settle: only({}).settle,
      },
    );
    return { status: res.status, moved: minus(f(named, after), f(named, before)) };
  }

  it('at start, one /supported call to each facilitator, ok; nothing else', async () => {
    const text = await scrape();
    for (const [i, f] of s.facilitators.entries()) {
      assert.deepEqual(counted(text, f.url, i + 1), only({ supported: { ok: 1 } }));
    }
  });

  it('a paid call: one verify and one settle, ok, each timed', async () => {
    const { status, moved } = await payWith({});
    assert.equal(status, 200);
    assert.deepEqual(
      { verify: moved.verify, settle: moved.settle },
      { verify: only({ verify: { ok: 1 } }).verify, settle: only({ settle: { ok: 1 } }).settle },
    );
  });

  const failures: { name: string; fault: FaultPlan; status: number; verify: object; settle: object }[] = [
    {
      name: 'verify answered HTTP 500',
      fault: { verify: 'http-500' },
      status: 402,
      verify: { http_error: 1 },
      settle: {},
    },
    {
      name: 'verify unreachable',
      fault: { verify: 'down' },
      status: 402,
      verify: { unreachable: 1 },
      settle: {},
    },
    {
      name: 'verify without an answer past FACILITATOR_TIMEOUT_MS',
      fault: { verify: 'slow' },
      status: 402,
      verify: { timeout: 1 },
      settle: {},
    },
    {
      name: 'verify answered garbage',
      fault: { verify: 'garbage' },
      status: 402,
      verify: { garbage: 1 },
      settle: {},
    },
    {
      name: 'settle refused',
      fault: { settle: 'refused' },
      status: 402,
      verify: { ok: 1 },
      settle: { refused: 1 },
    },
  ];
  for (const { name, fault, status, verify, settle } of failures) {
    it(`${name}: counted once under its outcome, on the facilitator the offer named`, async () => {
      const { status: got, moved } = await payWith(fault);
      assert.equal(got, status);
      assert.deepEqual(
        { verify: moved.verify, settle: moved.settle },
        { verify: only({ verify }).verify, settle: only({ settle }).settle },
      );
    });
  }
});

describe('facilitator metrics: /supported', { timeout: 60_000 }, () => {
  it('each probe counted under its outcome, as many as the facilitator saw', async () => {
    const first = await startFacilitatorStub(TEST_FEE_PAYER, 'http-500');
    const second = await startFacilitatorStub(TEST_FEE_PAYER_2);
    const svc = await startTestService({
      METRICS_PORT: '0',
      FACILITATOR_URLS: `${first.url},${second.url}`,
      FACILITATOR_TIMEOUT_MS: '300',
    });
    try {
      const scrape = async () => (await fetch(svc.running.metricsUrl!)).text();
      let text = await scrape();
      assert.deepEqual(counted(text, first.url, 1), only({ supported: { http_error: 1 } }));
      assert.deepEqual(counted(text, second.url, 2), only({ supported: { ok: 1 } }));
      const steps: [StubBehaviour, (typeof OUTCOMES)[number]][] = [
        ['garbage', 'garbage'],
        ['slow', 'timeout'],
        ['ok', 'ok'],
      ];
      for (const [behaviour, outcome] of steps) {
        first.behaviour = behaviour;
        const seen = first.calls();
        const before = counted(text, first.url, 1);
        await svc.service.facilitators.refresh();
        text = await scrape();
        // A background re-probe may add to the refresh: the facilitator's own count is the truth.
        const probes = first.calls() - seen;
        assert.ok(probes >= 1);
        assert.deepEqual(
          minus(counted(text, first.url, 1), before),
          only({ supported: { [outcome]: probes } }),
        );
      }
    } finally {
      await svc.close();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
