/**
 * The RPC client under a stated rate limit, against the seeded sandbox: a paid scan started
 * while a watch re-scan's reads wait for their turn is served first, its every read ahead of the
 * re-scan's queued ones. The rate limit's clock is the test's (it moves only when a read waits),
 * so the order does not depend on how fast the machine is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { subject } from '../../src/sandbox/scenarios/manifest.js';
import { boundedSend } from '../../src/scans/liquidity/bounded-search.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { scanDeadline } from '../../src/scans/scanner.js';
import type { RpcPriority } from '../../src/solana/rate-shaper.js';
import { createRpcEndpoints } from '../../src/solana/rpc.js';
import type { RpcObserver } from '../../src/solana/rpc-observer.js';
import { freshScan } from '../../src/watch/triggers/fresh-scan.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { useSeededSandbox } from '../helpers/seeded-sandbox.js';

/** The queues as the observer is told of them, each grant with the queues it left, and a wake-up on every change. */
function queueWatcher() {
  const depth: Record<RpcPriority, number> = { paid: 0, watch: 0 };
  const grants: { priority: RpcPriority; paidWaiting: number; watchWaiting: number }[] = [];
  let wake = () => {};
  const changed = () => wake();
  const observer: RpcObserver = {
    call: () => {},
    retry: () => {},
    breakerChanged: () => {},
    queued: (_endpoint, priority, n) => {
      depth[priority] = n;
      changed();
    },
    waited: (_endpoint, priority) => {
      grants.push({ priority, paidWaiting: depth.paid, watchWaiting: depth.watch });
      changed();
    },
  };
  const next = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  return { depth, grants, observer, next, changed };
}

describe('RPC rate limit: paid scans before watch re-scans', { timeout: 300_000 }, () => {
  const sandbox = useSeededSandbox('ideal');

  it("serves a paid scan's reads before those of a watch re-scan queued earlier", async () => {
    const clock = new ManualClock();
    const watcher = queueWatcher();
    const endpoints = createRpcEndpoints({
      urls: [sandbox.server.url],
      timeoutMs: 30_000,
      rateLimits: [10],
      clock,
      observer: watcher.observer,
    });
    const watched = subject(sandbox.manifest, 'pumpfun', 'pumpfun:graduated');
    const paid = subject(sandbox.manifest, 'pumpfun', 'pumpfun:curve-active');
    const done = { watch: false, paid: false };
    const track = <T>(key: keyof typeof done, run: Promise<T>) =>
      run.finally(() => {
        done[key] = true;
        watcher.changed();
      });

    const rescan = freshScan({ scanners: SCANNERS, rpc: endpoints.watchRpc, timeoutMs: 120_000 });
    const watchRun = track('watch', rescan('pumpfun', watched.address));
    // The clock stands still: the bucket's one token went to the re-scan's first read, the next ones wait.
    while (watcher.depth.watch === 0) await watcher.next();
    const paidRun = track(
      'paid',
      SCANNERS.pumpfun(paid.address, {
        rpc: endpoints.rpc,
        now: Date.now,
        signal: scanDeadline(120_000).signal,
      }),
    );
    while (watcher.depth.paid === 0) await watcher.next();

    // One token at a time, whenever a read waits for one, until both scans are done.
    while (!(done.watch && done.paid)) {
      if (watcher.depth.paid + watcher.depth.watch > 0) await clock.advance(200);
      else await watcher.next();
    }
    const [watchResult, paidResult] = await Promise.all([watchRun, paidRun]);

    const unavailable = [...watchResult.flags, ...paidResult.result.flags].filter((f) =>
      f.endsWith('_UNAVAILABLE'),
    );
    assert.deepEqual(unavailable, [], 'both scans read everything they asked');
    const watchWhilePaidWaited = watcher.grants.filter((g) => g.priority === 'watch' && g.paidWaiting > 0);
    assert.deepEqual(watchWhilePaidWaited, [], 'no re-scan read went while a paid read waited');
    const overtaking = watcher.grants.filter((g) => g.priority === 'paid' && g.watchWaiting > 0);
    assert.ok(overtaking.length > 0, 'paid reads went ahead of re-scan reads that were waiting');
  });
});

describe('RPC rate limit: a bound on a read does not count its wait for a turn', () => {
  const sandbox = useSeededSandbox('ideal');

  it('keeps the bound of a read waiting for its turn running only once it is sent', async () => {
    const clock = new ManualClock();
    const watcher = queueWatcher();
    const endpoints = createRpcEndpoints({
      urls: [sandbox.server.url],
      timeoutMs: 30_000,
      rateLimits: [10],
      clock,
      observer: watcher.observer,
    });
    const wallet = subject(sandbox.manifest, 'wallet', 'wallet:old-active').address as Address;
    const read = (send = {}) => endpoints.rpc.getSignaturesForAddress(wallet, { limit: 5 }).send(send);
    const first = read();
    const bound = boundedSend(undefined, 50);
    const bounded = read(bound.send).then(
      (page) => page.length,
      () => 'aborted once sent',
    );
    // The bucket's one token went to the first read; the second waits, as long as the clock stands.
    while (watcher.depth.paid === 0) await watcher.next();
    // Past the bound in real time: a 50 ms timer set before this one fires first, whatever the load.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(bound.send.abortSignal.aborted, false, 'the wait in the queue was not taken from the bound');
    while (watcher.depth.paid > 0) await clock.advance(200);
    assert.ok((await first).length > 0);
    // Sent now, with its 50 ms whole (whether the sandbox answers within them is the machine's load).
    await bounded;
  });
});
