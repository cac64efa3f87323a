/**
 * ScanService.runBatch, item by item as `run` is: a subject scanned before is served from the
 * cache and the others are filled into it; an item already being scanned is joined, not scanned
 * twice; an item that cannot be produced fails the batch, once the others have ended (and been
 * cached); a service without the RPC's transport runs each item as `run`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { EndpointId } from '../../../src/catalog.js';
import { SCANNERS } from '../../../src/scans/registry.js';
import { ScanFailedError } from '../../../src/scans/scanner.js';
import { type ScanMetrics, ScanService } from '../../../src/scans/service.js';
import { createMemoryCache } from '../../../src/state/cache/memory.js';
import { serviceOver, subjectsOf, verdictOf } from '../../helpers/batch-measure.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';
import { waveTransport } from '../../helpers/wave-transport.js';

const sandbox = useSeededSandbox({ name: 'ideal', rateLimit: null });
const NOW = Date.now();

const wallets = () => subjectsOf(sandbox.manifest, ['wallet'], 3);

describe('ScanService.runBatch', () => {
  it('serves a subject scanned before from the cache, fills the others, and then serves all', async () => {
    const waves = waveTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
    const service = serviceOver(waves.transport, () => NOW);
    const [a, b, c] = wallets();
    const single = await service.run('wallet', a!);
    const first = await service.runBatch('wallet', [a!, b!, c!]);
    assert.deepEqual(
      first.map((r) => r.cachedAt !== null),
      [true, false, false],
    );
    assert.deepEqual(first[0], { ...single, cachedAt: first[0]!.cachedAt });
    waves.reset();
    const again = await service.runBatch('wallet', [c!, a!, b!]);
    // In the order asked: the results the first batch produced for c, a and b.
    assert.deepEqual(
      again.map((r) => r.result),
      [first[2]!.result, first[0]!.result, first[1]!.result],
    );
    assert.ok(again.every((r) => r.cachedAt !== null));
    assert.deepEqual(waves.calls, [], 'nothing read for a batch served from the cache');
  });

  it('joins an identical scan already running instead of scanning the item again', async () => {
    const joined: EndpointId[] = [];
    const metrics: ScanMetrics = {
      cache: () => {},
      flightJoined: (e) => joined.push(e),
      scanDuration: () => {},
    };
    const transport = createDefaultRpcTransport({ url: sandbox.server.url });
    const service = new ScanService({
      scanners: SCANNERS,
      rpc: createSolanaRpcFromTransport(transport),
      transport,
      cache: createMemoryCache(),
      now: () => NOW,
      timeoutMs: 120_000,
      metrics,
    });
    const [a, b] = wallets();
    const [single, batch] = await Promise.all([
      service.run('wallet', a!),
      service.runBatch('wallet', [a!, b!]),
    ]);
    assert.deepEqual(joined, ['wallet']);
    assert.deepEqual(batch[0]!.result, single.result);
  });

  it('fails when an item cannot be produced, once the others have ended and been cached', async () => {
    const [a, b, c] = wallets();
    const transport = createDefaultRpcTransport({ url: sandbox.server.url });
    const service = new ScanService({
      scanners: {
        // An injected fault: this one subject's scan cannot be produced.
        wallet: (subject, context) =>
          subject === b ? Promise.reject(new ScanFailedError('injected')) : SCANNERS.wallet(subject, context),
      },
      rpc: createSolanaRpcFromTransport(transport),
      transport,
      cache: createMemoryCache(),
      now: () => NOW,
      timeoutMs: 120_000,
    });
    await assert.rejects(service.runBatch('wallet', [a!, b!, c!]), ScanFailedError);
    const after = await Promise.all([service.run('wallet', a!), service.run('wallet', c!)]);
    assert.ok(
      after.every((r) => r.cachedAt !== null),
      'the items produced were cached',
    );
  });

  it('runs each item as `run` does on a service without the RPC transport', async () => {
    const rpc = createSolanaRpcFromTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
    const plain = new ScanService({
      scanners: SCANNERS,
      rpc,
      cache: createMemoryCache(),
      now: () => NOW,
      timeoutMs: 120_000,
    });
    const subjects = wallets();
    const merged = serviceOver(createDefaultRpcTransport({ url: sandbox.server.url }), () => NOW);
    const [one, other] = await Promise.all([
      plain.runBatch('wallet', subjects),
      merged.runBatch('wallet', subjects),
    ]);
    assert.deepEqual(
      one.map((r) => verdictOf(r.result)),
      other.map((r) => verdictOf(r.result)),
    );
    assert.equal(one.length, 3);
  });
});
