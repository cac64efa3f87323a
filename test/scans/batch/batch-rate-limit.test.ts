/**
 * A batch of 25 tokens under a provider plan's rate limit (the sandbox's `paid-plan` profile, 50
 * requests a second, stated to the RPC client): its merged reads queue behind the limit, some
 * longer than the funding trace's 4 s bound, and every item still equals its single scan in flags
 * and score, with no 429 met. (That a read's wait for its turn is not taken from its bound is
 * test/solana/rpc-rate-limit.test.ts's.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPTIONAL_SEARCH_MS } from '../../../src/scans/liquidity/thresholds.js';
import { SCANNERS } from '../../../src/scans/registry.js';
import { ScanService } from '../../../src/scans/service.js';
import { createRpcEndpoints } from '../../../src/solana/rpc.js';
import type { RpcObserver } from '../../../src/solana/rpc-observer.js';
import { createMemoryCache } from '../../../src/state/cache/memory.js';
import { measureSingles, subjectsOf, verdictOf } from '../../helpers/batch-measure.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

const sandbox = useSeededSandbox({ name: 'ideal', rateLimit: null }, 'paid-plan');
const NOW = Date.now();

describe('a batch under a stated rate limit', () => {
  it('waits for its turns beyond the read bound and still equals its single scans', async () => {
    const subjects = subjectsOf(sandbox.manifest, ['token', 'pumpfun'], 25);
    const alone = await measureSingles(sandbox.servers.ideal!.url, 'token', subjects, () => NOW);
    let longestWaitS = 0;
    let limited = 0;
    const observer: RpcObserver = {
      call: (_endpoint, _method, outcome) => {
        if (outcome === '429') limited += 1;
      },
      retry: () => {},
      breakerChanged: () => {},
      waited: (_endpoint, _priority, seconds) => {
        longestWaitS = Math.max(longestWaitS, seconds);
      },
    };
    const endpoints = createRpcEndpoints({
      urls: [sandbox.servers['paid-plan']!.url],
      timeoutMs: 30_000,
      rateLimits: [50],
      observer,
    });
    const service = new ScanService({
      scanners: SCANNERS,
      rpc: endpoints.rpc,
      transport: endpoints.transport,
      cache: createMemoryCache(),
      now: () => NOW,
      timeoutMs: 300_000,
    });
    const runs = await service.runBatch('token', subjects);
    assert.ok(longestWaitS * 1000 > OPTIONAL_SEARCH_MS, `the longest wait for a turn was ${longestWaitS} s`);
    assert.equal(limited, 0, 'no read was answered 429');
    assert.deepEqual(
      runs.map((r) => verdictOf(r.result)),
      alone.results.map(verdictOf),
    );
  });
});
