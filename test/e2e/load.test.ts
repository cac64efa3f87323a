/**
 * The load run of `npm run load` (bench/load/), short: mixed traffic (discovery, 402 offers,
 * paid cached hits, paid fresh scans, each paid call with a payment of its own) from 20
 * concurrent clients against the API in its own process, on the sandbox chain. Then the chain
 * is read: every settled payment got its 200 or gets the stored 200 on replay, and every 200
 * names a settlement of its own payment. The saturation run does the same against an API
 * allowed one paid call in flight: every paid call completes or is refused with 503 and
 * Retry-After before its payment is touched, and that payment still buys one result.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type LoadOptions,
  type LoadReport,
  loadOn,
  runLoad,
  shedsPaidCalls,
  startWorldFor,
} from '../../bench/load/run-load.js';
import { KINDS, type Kind } from '../../bench/load/traffic.js';

const SECONDS = 8;

function statusesOf(report: LoadReport, kinds: readonly Kind[]): Set<string> {
  return new Set(kinds.flatMap((k) => Object.keys(report.byKind[k].statuses)));
}

function assertEveryPaymentAccountedFor(r: LoadReport) {
  const a = r.audit;
  assert.ok(a.settled > 0, 'some payments settled');
  assert.equal(a.lost, 0, 'no settled payment without its 200, in the run or on replay');
  assert.equal(a.answeredInRun + a.recoveredByReplay, a.settled);
  assert.equal(a.unsettled200, 0, 'every 200 names the settlement of its own payment');
  assert.equal(a.replayMismatches, 0, 'a replay returns the very 200 its payer got');
  assert.equal(a.unknownSettlements, 0, 'nothing settled that no request presented');
  assert.ok(a.receiptsMatch, "payTo received exactly the settled payments' price");
}

describe('load: mixed traffic against the API in its own process', { timeout: 240_000 }, () => {
  it(`${SECONDS} s at 20 connections: no 5xx, every settled payment delivered or replayable`, async () => {
    // The event-loop trigger is off: on a shared CI machine its p99 can pass 500 ms for reasons
    // of its own, and shedding is what the saturation run below shows.
    const r = await runLoad({
      seconds: SECONDS,
      connections: 20,
      payments: { cached: 600, fresh: 300 },
      apiEnv: { SHED_EVENT_LOOP_DELAY_MS: '0' },
    });
    for (const kind of KINDS) assert.ok(r.byKind[kind].requests > 0, `${kind} requests were sent`);
    assert.equal(r.fiveXx, 0, r.errors.join('; '));
    assert.equal(r.noAnswer, 0, r.errors.join('; '));
    assert.deepEqual(statusesOf(r, ['health', 'openapi', 'llms']), new Set(['200']));
    assert.deepEqual(statusesOf(r, ['offer']), new Set(['402']));
    assert.deepEqual(statusesOf(r, ['paid-cached', 'paid-fresh']), new Set(['200']));
    assert.equal(r.audit.paidRequests, r.byKind['paid-cached'].requests + r.byKind['paid-fresh'].requests);
    assertEveryPaymentAccountedFor(r);
    assert.equal(r.audit.settled, r.audit.paidRequests, 'every paid call was sold');
  });
});

describe('saturation: one paid call in flight, slow facilitator, 40 connections', {
  timeout: 240_000,
}, () => {
  const options: LoadOptions = {
    seconds: SECONDS,
    connections: 40,
    payments: { cached: 600, fresh: 300 },
    apiEnv: { MAX_INFLIGHT_PAID: '1' },
    facilitatorLatencyMs: 50,
    saturation: { buyRefused: 40 },
  };

  it('every paid call completes or is refused with 503 + Retry-After before payment; discovery and offers stay up', async (t) => {
    const world = await startWorldFor(options);
    try {
      if (!(await shedsPaidCalls(world))) {
        t.skip(
          'the API does not shed paid calls: no 503 among 10 concurrent paid calls with MAX_INFLIGHT_PAID=1 (load shedding not implemented)',
        );
        return;
      }
      const r = await loadOn(world, options);
      assert.ok(r.audit.refused > 0, 'shedding engaged during the run');
      assert.equal(r.unexpected5xx, 0, 'the only 5xx is a paid call refused with 503 and Retry-After');
      assert.equal(r.noAnswer, 0, r.errors.join('; '));
      assert.deepEqual(statusesOf(r, ['health', 'openapi', 'llms']), new Set(['200']));
      assert.deepEqual(statusesOf(r, ['offer']), new Set(['402']));
      for (const status of statusesOf(r, ['paid-cached', 'paid-fresh']))
        assert.ok(status === '200' || status === '503', `a paid call answered ${status}`);
      assert.equal(r.audit.badRefusals, 0, 'every 503 has Retry-After and left its payment unspent');
      assert.ok(r.audit.refusedPresentedAgain > 0);
      assert.equal(
        r.audit.refusedThenBought,
        r.audit.refusedPresentedAgain,
        'a refused payment still buys one result',
      );
      assertEveryPaymentAccountedFor(r);
    } finally {
      await world.close();
    }
  });
});
