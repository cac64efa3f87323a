/**
 * The RPC client's rate limit: a token bucket and the queues in front of it, on a clock the test
 * moves (no wall-clock timing). A paid scan's request is granted before a watch re-scan's that
 * waited longer; a caller that gives up leaves the queue.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  currentScanOrder,
  inScanOrder,
  RateShaper,
  type RpcPriority,
  shapedBucket,
  TokenBucket,
} from '../../src/solana/rate-shaper.js';
import { ManualClock, settle } from '../helpers/manual-clock.js';

describe('token bucket', () => {
  it('starts full, hands out its burst, then one token per 1/rate second', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    assert.deepEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [true, true, true, false]);
    assert.equal(bucket.waitMs(), 100);
    now = 99;
    assert.equal(bucket.take(), false);
    now = 100;
    assert.equal(bucket.take(), true);
    now = 10_000;
    assert.deepEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [true, true, true, false]);
  });

  it('takes several tokens at once only when it holds them all', () => {
    let now = 0;
    const bucket = new TokenBucket(50, 50, () => now);
    assert.equal(bucket.take(40), true);
    assert.equal(bucket.take(11), false);
    assert.equal(bucket.take(10), true);
    now = 20;
    assert.equal(bucket.take(), true);
  });

  it('as shaped from a stated rate, never sends more than that rate in any second', () => {
    let now = 0;
    const bucket = shapedBucket(50, () => now);
    const sent: number[] = [];
    for (now = 0; now < 5_000; now += 1) while (bucket.take()) sent.push(now);
    for (const start of sent) {
      const inSecond = sent.filter((t) => t >= start && t < start + 1_000).length;
      assert.ok(inSecond <= 50, `${inSecond} requests in the second from ${start} ms`);
    }
    assert.ok(sent.length >= 0.9 * 50 * 5, `${sent.length} requests in 5 s: 90 % of the rate`);
  });
});

describe('rate shaper', () => {
  const start = (rate: number, burst: number) => {
    const clock = new ManualClock();
    const granted: string[] = [];
    const depth: Record<RpcPriority, number> = { paid: 0, watch: 0 };
    const shaper = new RateShaper(new TokenBucket(rate, burst, clock.now), clock, {
      queued: (priority, n) => {
        depth[priority] = n;
      },
    });
    const ask = (name: string, priority: RpcPriority, signal?: AbortSignal) =>
      shaper.acquire(priority, signal).then(
        () => granted.push(name),
        (e: unknown) => granted.push(`${name} gave up: ${String(e)}`),
      );
    return { clock, shaper, granted, depth, ask };
  };

  it('sends at once while the bucket holds tokens, then queues in order at its rate', async () => {
    const { clock, granted, ask } = start(10, 2);
    for (const name of ['a', 'b', 'c', 'd']) void ask(name, 'paid');
    await settle();
    assert.deepEqual(granted, ['a', 'b']);
    await clock.advance(99);
    assert.deepEqual(granted, ['a', 'b']);
    await clock.advance(1);
    assert.deepEqual(granted, ['a', 'b', 'c']);
    await clock.advance(100);
    assert.deepEqual(granted, ['a', 'b', 'c', 'd']);
  });

  it("grants a paid scan's request before a watch re-scan's that waited longer", async () => {
    const { clock, granted, depth, ask } = start(10, 1);
    void ask('first', 'paid');
    void ask('watch 1', 'watch');
    void ask('watch 2', 'watch');
    await clock.advance(50);
    void ask('paid 1', 'paid');
    void ask('paid 2', 'paid');
    await settle();
    assert.deepEqual(depth, { paid: 2, watch: 2 });
    await clock.advance(50);
    assert.deepEqual(granted, ['first', 'paid 1']);
    await clock.advance(300);
    assert.deepEqual(granted, ['first', 'paid 1', 'paid 2', 'watch 1', 'watch 2']);
    assert.deepEqual(depth, { paid: 0, watch: 0 });
  });

  it('within a priority, serves the scan that started first, and what no scan sent before any scan', async () => {
    const { clock, shaper, granted } = start(10, 1);
    const ask = (name: string, priority: RpcPriority, order?: number) =>
      shaper.acquire(priority, undefined, order).then(() => granted.push(name));
    void ask('first', 'paid', 1);
    void ask('scan 3, read 1', 'paid', 3);
    void ask('scan 2, read 1', 'paid', 2);
    void ask('scan 3, read 2', 'paid', 3);
    void ask('re-scan 1', 'watch', 1);
    void ask('settlement lookup', 'paid');
    void ask('scan 2, read 2', 'paid', 2);
    await clock.advance(600);
    assert.deepEqual(granted, [
      'first',
      'settlement lookup',
      'scan 2, read 1',
      'scan 2, read 2',
      'scan 3, read 1',
      'scan 3, read 2',
      're-scan 1',
    ]);
  });

  it('places each scan started with inScanOrder after those started before it', async () => {
    const orders: number[] = [];
    const scan = () => inScanOrder(async () => orders.push(currentScanOrder()));
    assert.equal(currentScanOrder(), 0, 'outside any scan');
    await Promise.all([scan(), scan()]);
    await inScanOrder(async () => {
      const outer = currentScanOrder();
      await inScanOrder(async () =>
        assert.equal(currentScanOrder(), outer, 'a scan within a scan keeps its place'),
      );
    });
    assert.ok(orders[0]! > 0 && orders[1]! > orders[0]!, `${orders}`);
  });

  it('lets a caller that gives up leave the queue without using a token', async () => {
    const { clock, shaper, granted, ask } = start(10, 1);
    void ask('first', 'paid');
    const deadline = new AbortController();
    void ask('late', 'paid', deadline.signal);
    void ask('next', 'watch');
    await settle();
    deadline.abort(new Error('deadline'));
    await settle();
    assert.equal(shaper.waiting('paid'), 0);
    await clock.advance(100);
    assert.deepEqual(granted, ['first', 'late gave up: Error: deadline', 'next']);
    assert.equal(clock.pending, 0, 'no timer is left once nobody waits');
  });

  it('refuses at once a caller whose signal has already aborted', async () => {
    const { granted, ask } = start(10, 1);
    await ask('gone', 'paid', AbortSignal.abort(new Error('over')));
    assert.deepEqual(granted, ['gone gave up: Error: over']);
  });

  it('holds no timer once the last waiter gave up', async () => {
    const { clock, ask } = start(1, 1);
    void ask('first', 'paid');
    const deadline = new AbortController();
    void ask('late', 'watch', deadline.signal);
    await settle();
    assert.equal(clock.pending, 1);
    deadline.abort(new Error('deadline'));
    await settle();
    assert.equal(clock.pending, 0);
  });
});
