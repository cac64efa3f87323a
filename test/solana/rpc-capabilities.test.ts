/**
 * The start-up capability probe against a local RPC that refuses what real providers refuse
 * (recorded answers from fixtures/providers/): the public endpoint's -32010 to
 * getTokenLargestAccounts and HTTP 410 to getProgramAccounts on a large program; the indexed
 * providers' -32600 "Too many accounts requested" to getProgramAccounts on pump.fun (which the
 * creator history no longer needs: it lists the creator's token accounts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { OFFERS_ONLY } from '../../src/service/index.js';
import { createRpc } from '../../src/solana/rpc.js';
import {
  createCapabilityMonitor,
  degradedFamilies,
  probeRpcCapabilities,
} from '../../src/solana/rpc-capabilities.js';
import { jsonOf, startTestService } from '../helpers/service.js';
import { type FakeAnswer, type FakeRpc, type FakeScript, startFakeRpc } from './fake-rpc.js';

/** Recorded provider answers (fixtures/providers/PROVENANCE.md). */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/providers/${name}.json`, import.meta.url), 'utf8'));
/** -32010 "TokenkegQ… excluded from account secondary indexes", HTTP 200. */
const EXCLUDED = fixture('public-mainnet-getTokenLargestAccounts-32010').response.error;
/** HTTP 410 "The RPC call or parameters have been disabled." on large programs. */
const DISABLED = fixture('public-mainnet-getProgramAccounts-disabled-410').httpStatus as number;
/** -32600 "Too many accounts requested (10000001 pubkeys) …" (Helius, Alchemy, dRPC). */
const TOO_MANY = fixture('indexed-provider-getProgramAccounts-too-many-accounts').sandboxAnswer.error;

const served = (method: string): FakeAnswer => {
  switch (method) {
    case 'getSignaturesForAddress':
      return { result: [] };
    case 'getMultipleAccounts':
      return { result: { context: { slot: 1 }, value: [null, null] } };
    case 'getTokenLargestAccounts':
      return { result: { context: { slot: 1 }, value: [] } };
    case 'getProgramAccounts':
    case 'getTokenAccountsByOwner':
      return { result: { context: { slot: 1 }, value: [] } };
    default:
      return { result: 1 };
  }
};

/** The public endpoint, as far as the probe can tell. */
const publicMainnet: FakeScript = (method) => {
  if (method === 'getTokenLargestAccounts') return { error: EXCLUDED };
  if (method === 'getProgramAccounts') return { status: DISABLED };
  return served(method);
};

/** An indexed provider: holders served, pump.fun's getProgramAccounts refused for its size. */
const indexedProvider: FakeScript = (method) =>
  method === 'getProgramAccounts' ? { error: TOO_MANY } : served(method);

const rpcOf = (url: string) => createRpc({ urls: [url], timeoutMs: 2_000, retry: { initialDelayMs: 5 } });

describe('RPC capability probe', { timeout: 30_000 }, () => {
  let server: FakeRpc;
  before(async () => {
    server = await startFakeRpc(publicMainnet);
  });
  after(() => server.close());

  it('public endpoint: holders unavailable with its reason, the others available', async () => {
    const caps = await probeRpcCapabilities(rpcOf(server.url), 2_000);
    assert.equal(caps.holder_concentration.available, false);
    assert.equal(caps.holder_concentration.method, 'getTokenLargestAccounts');
    assert.match(
      caps.holder_concentration.reason!,
      /^getTokenLargestAccounts refused \(-32010\): TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA excluded from account secondary indexes/,
    );
    assert.deepEqual(caps.creator_history, { available: true, method: 'getTokenAccountsByOwner' });
    assert.deepEqual(caps.transaction_history, { available: true, method: 'getSignaturesForAddress' });
    assert.deepEqual(caps.account_reads, { available: true, method: 'getMultipleAccounts' });
    assert.deepEqual(
      degradedFamilies(caps).map((d) => d.family),
      ['holder_concentration'],
    );
    assert.equal(server.count('getProgramAccounts'), 0, 'no check needs it any more');
  });

  it('indexed provider (refusing getProgramAccounts on pump.fun): every family available', async () => {
    const indexed = await startFakeRpc(indexedProvider);
    try {
      const caps = await probeRpcCapabilities(rpcOf(indexed.url), 2_000);
      assert.deepEqual(degradedFamilies(caps), []);
    } finally {
      await indexed.close();
    }
  });

  it('a provider that serves everything: every family available', async () => {
    const ideal = await startFakeRpc(served);
    try {
      const caps = await probeRpcCapabilities(rpcOf(ideal.url), 2_000);
      assert.deepEqual(degradedFamilies(caps), []);
    } finally {
      await ideal.close();
    }
  });

  it('asks for an owner’s token accounts as the pump.fun scan does: the token program, mints only', async () => {
    let params: unknown;
    const spy = await startFakeRpc((method, _n, p) => {
      if (method === 'getTokenAccountsByOwner') params = p;
      return publicMainnet(method, 1, p);
    });
    try {
      await probeRpcCapabilities(rpcOf(spy.url), 2_000);
      const [, filter, config] = params as [string, Record<string, string>, Record<string, any>];
      assert.deepEqual(filter, { programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' });
      assert.deepEqual(config.dataSlice, { offset: 0, length: 32 });
    } finally {
      await spy.close();
    }
  });

  it('a method that does not answer in time is "timed out", and the probe still resolves', async () => {
    const slow = await startFakeRpc((method, n, p) =>
      method === 'getTokenAccountsByOwner' ? { hang: true } : publicMainnet(method, n, p),
    );
    try {
      const caps = await probeRpcCapabilities(rpcOf(slow.url), 200);
      assert.equal(caps.creator_history.available, false);
      assert.match(
        caps.creator_history.reason!,
        /^timed out: no answer to getTokenAccountsByOwner within 200 ms/,
      );
    } finally {
      await slow.close();
    }
  });

  it('an unreachable RPC makes every family unavailable, without throwing', async () => {
    const gone = await startFakeRpc(served);
    const url = gone.url;
    await gone.close();
    const caps = await probeRpcCapabilities(
      // No breaker: which of the parallel probes would meet it open first is a race.
      createRpc({
        urls: [url],
        timeoutMs: 500,
        retry: { maxRetries: 1, initialDelayMs: 5 },
        breaker: { failures: 0 },
      }),
      1_000,
    );
    assert.equal(degradedFamilies(caps).length, 4);
    assert.match(caps.account_reads.reason!, /getMultipleAccounts failed: fetch failed/);
  });

  it('the monitor probes once, then answers /health from that result', async () => {
    let probes = 0;
    const monitor = createCapabilityMonitor(async () => {
      probes += 1;
      return probeRpcCapabilities(rpcOf(server.url), 2_000);
    }, 60_000);
    assert.equal(monitor.latest(), null);
    await monitor.refresh();
    const check = (await monitor.check()) as any;
    await monitor.check();
    assert.equal(probes, 1);
    assert.equal(check.status, 'down');
    assert.match(check.detail, /degraded with this RPC: holder_concentration$/);
    assert.equal(check.families.account_reads.available, true);
  });

  it('/health lists each family as available or not and why; the service is degraded', async () => {
    const svc = await startTestService({ SOLANA_RPC_URL: server.url }, { mode: OFFERS_ONLY, probeRpc: true });
    try {
      const caps = svc.service.rpcCapabilities();
      assert.equal(caps?.holder_concentration.available, false);
      const health = await jsonOf(await fetch(`${svc.url}/health`));
      assert.equal(health.status, 'degraded');
      const check = health.checks.rpc_capabilities;
      assert.equal(check.status, 'down');
      assert.equal(check.families.holder_concentration.available, false);
      assert.equal(check.families.holder_concentration.method, 'getTokenLargestAccounts');
      assert.match(check.families.holder_concentration.reason, /-32010/);
      assert.equal(check.families.creator_history.available, true);
      assert.equal(check.families.transaction_history.available, true);
      assert.equal(check.families.account_reads.available, true);
    } finally {
      await svc.close();
    }
  });

  it('is off where the dependency checks are replaced (the test services), and there is no such check', async () => {
    const before = server.count('getTokenLargestAccounts');
    const svc = await startTestService({ SOLANA_RPC_URL: server.url });
    try {
      assert.equal(svc.service.rpcCapabilities(), null);
      const health = await jsonOf(await fetch(`${svc.url}/health`));
      assert.equal(health.checks.rpc_capabilities, undefined);
      assert.equal(server.count('getTokenLargestAccounts'), before);
    } finally {
      await svc.close();
    }
  });
});
