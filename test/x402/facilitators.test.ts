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

  const directory = () =>
    new FacilitatorDirectory({ urls: [a.url, b.url], timeoutMs: 300, refreshMs: 60_000 });

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
      const started = performance.now();
      await dir.refresh();
      assert.ok(performance.now() - started < 2_000, 'a slow facilitator is cut off by the timeout');
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
    const dir = new FacilitatorDirectory({ urls: [a.url], timeoutMs: 300, refreshMs: 60_000, retryMs: 50 });
    await dir.start();
    assert.equal(dir.advertised(), null);
    a.behaviour = 'ok';
    const deadline = Date.now() + 2_000;
    while (dir.advertised() === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    dir.stop();
    assert.equal(dir.advertised()?.url, a.url);
  });
});
