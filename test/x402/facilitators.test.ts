import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FacilitatorDirectory, readSupported } from '../../src/x402/facilitators.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { TEST_FEE_PAYER, TEST_FEE_PAYER_2 } from '../helpers/service.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

describe('readSupported', () => {
  it('takes the fee payer of a v1 "solana" kind and records both network names', () => {
    const learned = readSupported({
      kinds: [
        { x402Version: 1, scheme: 'exact', network: 'base', extra: { feePayer: 'ignored' } },
        { x402Version: 1, scheme: 'exact', network: 'solana', extra: { feePayer: TEST_FEE_PAYER } },
        { x402Version: 2, scheme: 'exact', network: CAIP2, extra: { feePayer: TEST_FEE_PAYER } },
      ],
    });
    assert.deepEqual(learned, { feePayer: TEST_FEE_PAYER, networks: { v1: 'solana', v2: CAIP2 } });
  });

  it('accepts facilitators that list mainnet as solana-mainnet (Corbits) or only v2 with signers', () => {
    assert.equal(
      readSupported({
        kinds: [
          { x402Version: 1, scheme: 'exact', network: 'solana-mainnet', extra: { feePayer: TEST_FEE_PAYER } },
        ],
      }).feePayer,
      TEST_FEE_PAYER,
    );
    const v2Only = readSupported({
      kinds: [{ x402Version: 2, scheme: 'exact', network: CAIP2 }],
      signers: { 'solana:*': [TEST_FEE_PAYER_2] },
    });
    assert.deepEqual(v2Only, { feePayer: TEST_FEE_PAYER_2, networks: { v1: null, v2: CAIP2 } });
  });

  it('finds no fee payer on devnet-only or EVM-only facilitators, or with a malformed fee payer', () => {
    const devnet = readSupported({
      kinds: [
        { x402Version: 1, scheme: 'exact', network: 'solana-devnet', extra: { feePayer: TEST_FEE_PAYER } },
      ],
    });
    assert.equal(devnet.feePayer, null);
    const malformed = readSupported({
      kinds: [{ x402Version: 1, scheme: 'exact', network: 'solana', extra: { feePayer: '0xdeadbeef' } }],
    });
    assert.equal(malformed.feePayer, null);
  });
});

describe('FacilitatorDirectory against live stand-ins', () => {
  let a: FacilitatorStub;
  let b: FacilitatorStub;
  before(async () => {
    a = await startFacilitatorStub(TEST_FEE_PAYER);
    b = await startFacilitatorStub(TEST_FEE_PAYER_2);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  // The probe timeout only ends the probe of the `slow` stub, which never answers: an honest local
  // answer comes far sooner, however busy the machine is.
  const PROBE_TIMEOUT_MS = 5_000;
  const directory = () =>
    new FacilitatorDirectory({ urls: [a.url, b.url], timeoutMs: PROBE_TIMEOUT_MS, refreshMs: 60_000 });

  it('advertises the first healthy facilitator and routes by fee payer', async () => {
    a.behaviour = 'ok';
    b.behaviour = 'ok';
    const dir = directory();
    await dir.refresh();
    assert.equal(dir.advertised()?.url, a.url);
    assert.equal(dir.byFeePayer(TEST_FEE_PAYER_2)?.url, b.url);
  });

  for (const fault of ['http-500', 'garbage', 'slow', 'no-solana'] as const) {
    it(`fails over to the second when the first is ${fault}, and says why`, async () => {
      a.behaviour = fault;
      b.behaviour = 'ok';
      const dir = directory();
      // A slow facilitator that the timeout did not cut off would hang this refresh.
      await dir.refresh();
      assert.equal(dir.advertised()?.url, b.url);
      const first = dir.status()[0]!;
      assert.equal(first.healthy, false);
      assert.ok((first.lastError ?? '').length > 0);
    });
  }

  it('reports no facilitator, with every reason, when all are down', async () => {
    a.behaviour = 'http-500';
    b.behaviour = 'garbage';
    const dir = directory();
    await dir.refresh();
    assert.equal(dir.advertised(), null);
    const reason = dir.unavailableReason();
    assert.ok(reason.includes(a.url) && reason.includes('HTTP 500'));
    assert.ok(reason.includes(b.url));
  });

  it('recovers on the next refresh and bumps its version so 402 bodies are rebuilt', async () => {
    a.behaviour = 'http-500';
    b.behaviour = 'http-500';
    const dir = directory();
    await dir.refresh();
    const before = dir.version;
    a.behaviour = 'ok';
    await dir.refresh();
    assert.equal(dir.advertised()?.url, a.url);
    assert.ok(dir.version > before);
  });

  it('markUnhealthy fails the 402 over to the next facilitator at once', async () => {
    a.behaviour = 'ok';
    b.behaviour = 'ok';
    const dir = directory();
    await dir.refresh();
    dir.markUnhealthy(a.url, 'settle timed out');
    assert.equal(dir.advertised()?.url, b.url);
  });

  it('keeps refreshing in the background after start()', async () => {
    a.behaviour = 'http-500';
    b.behaviour = 'http-500';
    const dir = new FacilitatorDirectory({
      urls: [a.url],
      timeoutMs: PROBE_TIMEOUT_MS,
      refreshMs: 60_000,
      retryMs: 50,
    });
    await dir.start();
    assert.equal(dir.advertised(), null);
    a.behaviour = 'ok';
    await waitFor(() => dir.advertised() !== null, 'a background refresh finds the facilitator');
    dir.stop();
    assert.equal(dir.advertised()?.url, a.url);
  });
});

/**
 * A scripted /supported per facilitator URL: answers ok unless told to fail, counts probes and can
 * hold answers back, so these tests wait on events instead of guessing how long a probe takes.
 */
function scriptedFacilitators(feePayers: Record<string, string>) {
  const probes = new Map<string, number>();
  const failuresToGive = new Map<string, number>();
  let held: Promise<void> | null = null;
  const fake: typeof fetch = async (input) => {
    const url = String(input).replace(/\/supported$/, '');
    probes.set(url, (probes.get(url) ?? 0) + 1);
    if (held) await held;
    const failures = failuresToGive.get(url) ?? 0;
    if (failures > 0) {
      failuresToGive.set(url, failures - 1);
      return new Response('{"error":"boom"}', { status: 500 });
    }
    const feePayer = feePayers[url]!;
    return Response.json({
      kinds: [{ x402Version: 2, scheme: 'exact', network: CAIP2, extra: { feePayer } }],
    });
  };
  return {
    fetch: fake,
    probes: (url: string) => probes.get(url) ?? 0,
    failNext: (url: string, count: number) => failuresToGive.set(url, count),
    /** Holds every answer back until the returned function is called. */
    hold: () => {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
      return release;
    },
  };
}

/** Resolves once `condition` holds; the bound only ends a test that would otherwise hang. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('FacilitatorDirectory re-probes a facilitator a payment call failed on', () => {
  const A = 'http://facilitator-a.test';
  const B = 'http://facilitator-b.test';
  const RETRY_MS = 50;
  const directory = (urls: string[], fake: typeof fetch) =>
    new FacilitatorDirectory({ urls, timeoutMs: 1_000, refreshMs: 600_000, retryMs: RETRY_MS, fetch: fake });

  it('re-probes /supported without waiting for refreshMs, retries every retryMs and advertises it again', async () => {
    const script = scriptedFacilitators({ [A]: TEST_FEE_PAYER });
    const dir = directory([A], script.fetch);
    await dir.start();
    assert.equal(dir.advertised()?.url, A);
    script.failNext(A, 2);
    dir.markUnhealthy(A, 'verify timed out');
    assert.equal(dir.advertised(), null);
    await waitFor(() => dir.advertised()?.url === A, 'the facilitator is advertised again');
    dir.stop();
    assert.ok(script.probes(A) >= 4, 'the start probe, two failed re-probes and the one that answered');
    assert.equal(dir.status()[0]!.lastError, null);
  });

  it('with two facilitators, fails over to the second at once and takes the first back after its re-probe', async () => {
    const script = scriptedFacilitators({ [A]: TEST_FEE_PAYER, [B]: TEST_FEE_PAYER_2 });
    const dir = directory([A, B], script.fetch);
    await dir.start();
    dir.markUnhealthy(A, 'verify timed out');
    assert.equal(dir.advertised()?.url, B, 'the very next offer names the second');
    await waitFor(() => dir.advertised()?.url === A, 'the first is advertised again');
    dir.stop();
  });

  for (const urls of [[A], [A, B]]) {
    it(`many markUnhealthy calls at once start one probe, not many (${urls.length} configured)`, async () => {
      const script = scriptedFacilitators({ [A]: TEST_FEE_PAYER, [B]: TEST_FEE_PAYER_2 });
      const dir = directory(urls, script.fetch);
      await dir.start();
      const before = script.probes(A);
      const release = script.hold();
      for (let n = 0; n < 100; n++) dir.markUnhealthy(A, 'verify timed out');
      await waitFor(() => script.probes(A) > before, 'the facilitator is re-probed');
      // More failures while that probe is under way must not start another.
      for (let n = 0; n < 100; n++) dir.markUnhealthy(A, 'verify timed out');
      await sleep(5 * RETRY_MS);
      release();
      await waitFor(() => dir.advertised()?.url === A, 'the facilitator is advertised again');
      await sleep(5 * RETRY_MS);
      assert.equal(script.probes(A), before + 1);
      dir.stop();
      dir.markUnhealthy(A, 'verify timed out');
      await sleep(5 * RETRY_MS);
      assert.equal(script.probes(A), before + 1, 'nothing probes once stopped');
    });
  }

  it('a /supported answer already under way when a payment call failed does not make it healthy again', async () => {
    const script = scriptedFacilitators({ [A]: TEST_FEE_PAYER, [B]: TEST_FEE_PAYER_2 });
    const dir = directory([A, B], script.fetch);
    await dir.start();
    const release = script.hold();
    const refreshed = dir.refresh();
    dir.markUnhealthy(A, 'verify timed out');
    release();
    await refreshed;
    assert.equal(dir.advertised()?.url, B, 'an answer that predates the failure is no evidence against it');
    const probesAfterRefresh = script.probes(A);
    await waitFor(() => dir.advertised()?.url === A, 'a later probe takes the first back');
    assert.ok(script.probes(A) > probesAfterRefresh);
    dir.stop();
  });
});
