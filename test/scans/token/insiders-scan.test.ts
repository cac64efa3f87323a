/**
 * Insiders by funding on the seeded sandbox, answering as each provider does: the wallets the
 * creator funded before the launch (directly, or through one intermediate wallet) are one cluster
 * with its funder, hop count and share, in /scan/pumpfun and /scan/token alike; wallets an exchange
 * paid out to are no cluster. The bounds: calls and round trips per scan, a search the provider
 * never answers is cut (and said), a refused method lowers confidence and invents nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import type { RpcProfileName } from '../../../src/sandbox/rpc/profiles.js';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import { scanDeadline } from '../../../src/scans/scanner.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { gatherInsiderFacts, MAX_HOLDERS_TRACED } from '../../../src/scans/token/insiders/facts.js';
import { WELL_KNOWN_FUNDERS } from '../../../src/scans/token/insiders/well-known-funders.js';
import { gatherLaunchFacts } from '../../../src/scans/token/launch/facts.js';
import { gatherTokenFacts } from '../../../src/scans/token/schedule.js';
import type { SolanaRpc } from '../../../src/solana/rpc.js';
import { countingTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

const PROFILES: RpcProfileName[] = ['ideal', 'indexed-provider', 'public-mainnet'];
const BINANCE = WELL_KNOWN_FUNDERS[0]!.address;

/** Never answers getSignaturesForAddress but the mint's own: the call ends only when its signal aborts. */
function hangingWalletPages(inner: RpcTransport, mint: string): RpcTransport {
  return (async (request) => {
    const { method, params } = request.payload as { method?: string; params?: unknown[] };
    if (method !== 'getSignaturesForAddress' || params?.[0] === mint) return inner(request);
    return new Promise((_, reject) => {
      const { signal } = request;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as RpcTransport;
}

describe('insiders by funding under each provider', { timeout: 300_000 }, () => {
  const sandbox = useSeededSandbox(...PROFILES.map((name) => ({ name, rateLimit: null })));
  const scan = async (
    profile: RpcProfileName,
    endpoint: 'pumpfun' | 'token',
    name: string,
    wrap = (t: RpcTransport) => t,
  ) => {
    const counter = countingTransport(
      wrap(createDefaultRpcTransport({ url: sandbox.servers[profile]!.url })),
    );
    const scanner = endpoint === 'pumpfun' ? scanPumpfun : scanToken;
    const kind = name.startsWith('pumpfun:') ? 'pumpfun' : 'token';
    const { result } = await scanner(subject(sandbox.manifest, kind, name).address, {
      rpc: createSolanaRpcFromTransport(counter.transport) as unknown as SolanaRpc,
      now: Date.now,
      signal: scanDeadline(60_000).signal,
    });
    return {
      result,
      evidence: result.evidence as any,
      roundTrips: counter.roundTrips(),
      calls: counter.calls,
    };
  };

  it('pre-funded by the creator: one creator cluster at hop 1, 20 % (high), in four round trips on /scan/pumpfun', async () => {
    const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:insiders-creator-funded');
    const { result, evidence, roundTrips } = await scan('ideal', 'pumpfun', s.name);
    assert.ok(result.flags.includes('INSIDER_CLUSTER'), String(result.flags));
    const hit = evidence.flags.INSIDER_CLUSTER;
    assert.equal(hit.weight_applied, 0.6, 'high: the cluster holds 20 % or more');
    assert.equal(hit.creator, s.expect.creator);
    assert.deepEqual(
      hit.clusters.map((c: any) => [c.kind, c.funder, c.hops, c.wallets.length, c.share]),
      [['creator', s.expect.creator, 1, 4, 0.2]],
    );
    assert.ok(!result.flags.includes('LAUNCH_INSIDERS'), 'funded before the launch, not inside it');
    assert.ok(roundTrips <= 4, `${roundTrips} round trips`);
  });

  it('through one intermediate wallet: the creator at hop 2, 12 % (medium), on both scans', async () => {
    for (const endpoint of ['pumpfun', 'token'] as const) {
      const s = subject(sandbox.manifest, 'pumpfun', 'pumpfun:insiders-via-intermediate');
      const { result, evidence, roundTrips } = await scan('ideal', endpoint, s.name);
      const hit = evidence.flags.INSIDER_CLUSTER;
      assert.ok(hit, `${endpoint}: ${result.flags}`);
      assert.equal(hit.weight_applied, 0.3, 'medium: the cluster holds 5 % to 20 %');
      assert.deepEqual(
        hit.clusters.map((c: any) => [c.kind, c.funder, c.hops, c.wallets.length, c.share]),
        [['creator', s.expect.creator, 2, 4, 0.12]],
      );
      // The second hop is two more round trips (the funder's page, then its funding), beyond the p50.
      assert.ok(roundTrips <= 6, `${endpoint}: ${roundTrips} round trips`);
    }
  });

  it('paid out by an exchange hot wallet: the chain stops there, no cluster, in four round trips', async () => {
    const { result, evidence, roundTrips } = await scan(
      'ideal',
      'pumpfun',
      'pumpfun:insiders-exchange-funded',
    );
    assert.ok(!result.flags.includes('INSIDER_CLUSTER'), String(result.flags));
    const byExchange = evidence.insiders.traced.filter((w: any) => w.funders[0] === BINANCE);
    assert.equal(byExchange.length, 4);
    for (const w of byExchange) assert.deepEqual(w.funders, [BINANCE], 'never traced past the exchange');
    assert.deepEqual(evidence.insiders.clusters, []);
    assert.ok(roundTrips <= 4, `${roundTrips} round trips`);
  });

  it('a plain SPL token: holders the creator funded are one cluster on /scan/token', async () => {
    const s = subject(sandbox.manifest, 'token', 'token:insiders-creator-funded');
    const { result, evidence } = await scan('ideal', 'token', s.name);
    const hit = evidence.flags.INSIDER_CLUSTER;
    assert.ok(hit, String(result.flags));
    assert.equal(hit.clusters[0].kind, 'creator');
    assert.equal(hit.clusters[0].wallets.length, 4);
    assert.ok(hit.share >= 0.2, String(hit.share));
  });

  it('ordinary tokens: no insider call past the third round trip, none flagged', async () => {
    for (const [endpoint, name] of [
      ['pumpfun', 'pumpfun:curve-active'],
      ['pumpfun', 'pumpfun:launch-fair'],
      ['token', 'token:clean'],
    ] as const) {
      const { result, roundTrips } = await scan('ideal', endpoint, name);
      assert.ok(!result.flags.includes('INSIDER_CLUSTER'), `${name}: ${result.flags}`);
      assert.equal(roundTrips, 3, name);
    }
  });

  it('indexed-provider: the same clusters (the methods it needs are served)', async () => {
    for (const name of ['pumpfun:insiders-creator-funded', 'pumpfun:insiders-via-intermediate']) {
      const { result } = await scan('indexed-provider', 'pumpfun', name);
      assert.ok(result.flags.includes('INSIDER_CLUSTER'), `${name}: ${result.flags}`);
    }
  });

  it('public-mainnet: the largest holders are refused, said; the launch buyers are still traced, nothing invented', async () => {
    const ideal = await scan('ideal', 'pumpfun', 'pumpfun:insiders-creator-funded');
    const { result, evidence } = await scan('public-mainnet', 'pumpfun', 'pumpfun:insiders-creator-funded');
    assert.match(evidence.insiders.not_traced.holders, /largest holders could not be read/);
    // Its buyers are in the launch: the cluster is found, but what they hold is unknown, so no flag.
    const cluster = evidence.insiders.clusters[0];
    assert.equal(cluster.kind, 'creator');
    assert.equal(cluster.wallets.length, 4);
    assert.equal(cluster.share, 0);
    assert.ok(!result.flags.includes('INSIDER_CLUSTER'), String(result.flags));
    assert.ok(result.confidence < ideal.result.confidence);
  });

  it('a refused method: INSIDERS_UNAVAILABLE lowers confidence, no cluster is invented, the score never drops', async () => {
    const name = 'token:insiders-creator-funded';
    const full = await scan('ideal', 'token', name);
    const refused = await scan('ideal', 'token', name, (t) =>
      failingTransport(t, (m) => m === 'getTransaction'),
    );
    assert.ok(refused.result.flags.includes('INSIDERS_UNAVAILABLE'), String(refused.result.flags));
    assert.ok(!refused.result.flags.includes('INSIDER_CLUSTER'));
    assert.match(refused.evidence.flags.INSIDERS_UNAVAILABLE.reason, /getTransaction/);
    assert.ok(refused.result.confidence < full.result.confidence);
    assert.ok(!full.result.flags.includes('INSIDERS_UNAVAILABLE'));
  });

  it('the bound: pages a provider never answers are cut at the bound and said, and the facts still end', async () => {
    const s = subject(sandbox.manifest, 'token', 'token:insiders-creator-funded');
    const inner = createDefaultRpcTransport({ url: sandbox.servers.ideal!.url });
    const rpc = createSolanaRpcFromTransport(hangingWalletPages(inner, s.address)) as unknown as SolanaRpc;
    const { facts } = await gatherTokenFacts(rpc, s.address as never, Date.now);
    const launch = gatherLaunchFacts(facts, rpc);
    const held = Promise.resolve({
      read: { largest: [], accounts: [], also: [] },
      holders: facts.decoded.holders,
    });
    const insiders = await gatherInsiderFacts(
      rpc,
      { mint: s.address, history: facts.history, held, largestError: null, launch, creator: null },
      undefined,
      20,
    );
    assert.equal(insiders.status, 'read');
    if (insiders.status !== 'read') return;
    assert.equal(insiders.wallets.length, MAX_HOLDERS_TRACED, 'the largest holders, up to the cap');
    assert.equal(insiders.overCap, facts.decoded.holders.length - MAX_HOLDERS_TRACED);
    for (const w of insiders.wallets) {
      assert.match(String(w.cut), /getSignaturesForAddress: no answer within 20 ms/);
      assert.equal(w.refused, true);
    }
  });
});
