/**
 * The load shedder's decisions, with an injected event-loop delay reading (no timing): a paid
 * call beyond the in-flight limit, or while the loop lags past the threshold, or once a drain has
 * begun, is refused with a 503 naming the reason; a drain ends when the last slot is left.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createShedder, type Entry } from '../../src/door/shedding.js';
import { reasonText } from '../../src/reasons.js';

const refusedFor = (entry: Entry) => (entry.admitted ? null : entry.reason);

describe('load shedding', () => {
  it('refuses a paid call beyond MAX_INFLIGHT_PAID, and admits again once one has left', () => {
    const shedder = createShedder({ maxInflightPaid: 2, eventLoopDelayMs: 0, retryAfterSeconds: 3 });
    const a = shedder.enter();
    const b = shedder.enter();
    assert.ok(a.admitted && b.admitted);
    const c = shedder.enter();
    assert.equal(refusedFor(c), 'inflight');
    assert.ok(!c.admitted);
    assert.equal(c.error.status, 503);
    const body = c.error.toBody('req-1');
    assert.equal(body.error, 'service_unavailable');
    assert.equal(body.reason, 'inflight');
    assert.equal(c.error.reason, 'inflight');
    assert.equal(body.message, reasonText('inflight', { seconds: 3 }));
    a.slot.leave();
    a.slot.leave(); // leaving twice frees one slot only
    assert.equal(shedder.inflight(), 1);
    assert.ok(shedder.enter().admitted);
    assert.equal(refusedFor(shedder.enter()), 'inflight');
  });

  it('counts a call by the scans it runs: a batch takes as many slots, and gives them all back', () => {
    const shedder = createShedder({ maxInflightPaid: 4, eventLoopDelayMs: 0, retryAfterSeconds: 1 });
    const single = shedder.enter();
    assert.equal(refusedFor(shedder.enter(4)), 'inflight', 'one in flight leaves room for three');
    const batch = shedder.enter(3);
    assert.ok(single.admitted && batch.admitted);
    assert.equal(shedder.inflight(), 4);
    assert.equal(refusedFor(shedder.enter()), 'inflight');
    batch.slot.leave();
    batch.slot.leave();
    assert.equal(shedder.inflight(), 1);
    single.slot.leave();
    const heavy = shedder.enter(25);
    assert.ok(heavy.admitted, 'a batch heavier than the limit runs when nothing else does');
    assert.equal(refusedFor(shedder.enter()), 'inflight');
  });

  it('refuses while the event-loop delay is past SHED_EVENT_LOOP_DELAY_MS, admits once it is back under', () => {
    let delay = 0;
    const shedder = createShedder({
      maxInflightPaid: 0,
      eventLoopDelayMs: 200,
      retryAfterSeconds: 1,
      readDelayMs: () => delay,
    });
    assert.ok(shedder.enter().admitted);
    delay = 201;
    assert.equal(refusedFor(shedder.enter()), 'event_loop');
    assert.equal(shedder.delayMs(), 201);
    delay = 200;
    assert.ok(shedder.enter().admitted);
    assert.equal(shedder.inflight(), 2, 'no limit on in-flight calls when MAX_INFLIGHT_PAID is 0');
  });

  it('ignores the event loop when its threshold is 0', () => {
    const shedder = createShedder({
      maxInflightPaid: 0,
      eventLoopDelayMs: 0,
      retryAfterSeconds: 1,
      readDelayMs: () => 10_000,
    });
    assert.ok(shedder.enter().admitted);
  });

  it('a drain refuses every new paid call and ends when the last one in flight has left', async () => {
    const shedder = createShedder({ maxInflightPaid: 10, eventLoopDelayMs: 0, retryAfterSeconds: 1 });
    const a = shedder.enter();
    const b = shedder.enter();
    assert.ok(a.admitted && b.admitted);
    let drained = false;
    const drain = shedder.drain().then(() => {
      drained = true;
    });
    assert.equal(refusedFor(shedder.enter()), 'shutting_down');
    a.slot.leave();
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false, 'one paid call still in flight');
    b.slot.leave();
    await drain;
    assert.equal(drained, true);
    await shedder.drain(); // a second drain is the same, already ended
    shedder.close();
  });

  it('with nothing in flight, a drain ends at once', async () => {
    const shedder = createShedder({ maxInflightPaid: 1, eventLoopDelayMs: 50, retryAfterSeconds: 1 });
    await shedder.drain();
    shedder.close();
  });
});
