/**
 * Every scanner against the sandbox answering as real RPC providers do (SANDBOX_RPC_PROFILE):
 * a refusal a provider really gives lowers confidence, never fails the scan (a 500 would refuse
 * the sale of every such subject on mainnet).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSolanaRpc } from '@solana/kit';
import type { ScanId } from '../../src/catalog.js';
import type { ScanResult } from '../../src/contract/schemas.js';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../src/sandbox/scenarios/index.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { scanDeadline } from '../../src/scans/scanner.js';
import { createRpc, type SolanaRpc } from '../../src/solana/rpc.js';
import { seededChain } from '../helpers/seeded-chain.js';

const PROFILES: RpcProfileName[] = ['ideal', 'public-mainnet', 'indexed-provider'];

describe('scanners under real providers’ refusals', { timeout: 300_000 }, () => {
  let chain: SandboxChain;
  let manifest: ScenarioManifest;
  const servers = new Map<RpcProfileName, SandboxRpc>();
  /** Every result, by profile and subject name. */
  const results = new Map<string, ScanResult>();
  /** Leak warnings printed while scanning (a scan's reads all listen on its one deadline). */
  const leakWarnings: Error[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') leakWarnings.push(w);
  };

  const scan = (profile: RpcProfileName, kind: ScanId, subject: string) =>
    SCANNERS[kind](subject, {
      rpc: createSolanaRpc(servers.get(profile)!.url),
      now: Date.now,
      signal: scanDeadline(60_000).signal,
    });

  before(async () => {
    process.on('warning', onWarning);
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    for (const name of PROFILES) {
      // Rate limits are left out here: this is about what each provider refuses.
      const profile = { name, rateLimit: null };
      servers.set(name, await startSandboxRpc({ chain, host: '127.0.0.1', port: 0, profile }));
    }
  });
  after(async () => {
    process.off('warning', onWarning);
    chain.stop();
    await Promise.all([...servers.values()].map((s) => s.close()));
  });

  it('every seeded subject is scanned under every profile: none fails', async () => {
    for (const subject of manifest.subjects) {
      const target = 'signature' in subject ? subject.signature : subject.address;
      for (const profile of PROFILES) {
        const { result } = await scan(profile, subject.kind, target as string).catch((e: unknown) => {
          throw new Error(`${subject.name} under ${profile}: ${e instanceof Error ? e.message : e}`);
        });
        results.set(`${profile} ${subject.name}`, result);
      }
    }
    assert.ok(results.size >= PROFILES.length * 20, `${results.size} scans`);
  });

  it('no scan printed a listener-leak warning: its reads listen on the deadline a scan is given', () => {
    assert.deepEqual(leakWarnings.map(String), []);
  });

  it('governed programs are recognised under every profile: their governing account is found without getProgramAccounts', () => {
    const expected = [
      ['mainnet:marinade', 'UPGRADE_AUTHORITY_MULTISIG'],
      ['program:governed:squads-v3', 'UPGRADE_AUTHORITY_MULTISIG'],
      ['program:governed:realms', 'UPGRADE_AUTHORITY_GOVERNANCE'],
    ] as const;
    for (const profile of PROFILES) {
      for (const [name, flag] of expected) {
        const flags = results.get(`${profile} ${name}`)?.flags ?? [];
        assert.ok(flags.includes(flag), `${name} under ${profile}: ${flags}`);
        assert.ok(!flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'), `${name} under ${profile}`);
      }
    }
  });

  it('on the public endpoint every token scan says its holders are unknown, with less confidence', () => {
    for (const subject of manifest.subjects.filter((s) => s.kind === 'token')) {
      const ideal = results.get(`ideal ${subject.name}`)!;
      const refused = results.get(`public-mainnet ${subject.name}`)!;
      assert.ok(refused.flags.includes('HOLDERS_UNAVAILABLE'), `${subject.name}: ${refused.flags}`);
      // Precisely why: the provider's own words.
      const why = (refused.evidence as any).flags.HOLDERS_UNAVAILABLE.reason as string;
      assert.match(why, /excluded from account secondary indexes/, `${subject.name}: ${why}`);
      assert.ok(refused.confidence < ideal.confidence, `${subject.name}: confidence ${refused.confidence}`);
      assert.ok(!ideal.flags.includes('HOLDERS_UNAVAILABLE'), `${subject.name} under ideal`);
    }
  });

  it('where getProgramAccounts on pump.fun is refused, creator history is still read, from the creator’s token accounts', () => {
    // The seeded coins (a mainnet dump is a lone account: its creator has no token accounts here).
    const coins = manifest.subjects.filter((s) => s.kind === 'pumpfun' && !s.name.startsWith('mainnet:'));
    assert.ok(coins.length >= 4, `${coins.length} coins`);
    for (const subject of coins) {
      for (const profile of PROFILES) {
        const result = results.get(`${profile} ${subject.name}`)!;
        assert.ok(!result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), `${subject.name} under ${profile}`);
        const history = (result.evidence as any).creator_launches;
        assert.equal(
          history.launches_found_via,
          'creator token accounts',
          `${subject.name} under ${profile}`,
        );
        assert.equal(history.holds_this_coin, true, `${subject.name} under ${profile}`);
      }
    }
  });

  for (const profile of ['indexed-provider', 'public-mainnet'] as const) {
    it(`under ${profile}, the serial launchers' latest coins are CREATOR_SERIAL_LAUNCHER, their launches in evidence`, () => {
      for (const name of ['pumpfun:serial-latest', 'pumpfun:dumper-latest']) {
        const coin = subject(manifest, 'pumpfun', name);
        const launched = coin.expect.creatorLaunches!;
        const result = results.get(`${profile} ${name}`)!;
        assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), `${name}: ${result.flags}`);
        const evidence = result.evidence as any;
        const flag = evidence.flags.CREATOR_SERIAL_LAUNCHER;
        assert.equal(flag.creator, coin.expect.creator);
        assert.equal(flag.launches, launched.mints.length);
        assert.equal(flag.dead, launched.incomplete);
        assert.equal(flag.graduated, launched.complete);
        assert.deepEqual(
          evidence.creator_launches.list.map((l: { mint: string }) => l.mint).sort(),
          [...launched.mints].sort(),
          `${name}: every launch listed`,
        );
      }
      // The case: a creator whose twelve earlier coins all died.
      const dumper = subject(manifest, 'pumpfun', 'pumpfun:dumper-latest');
      const earlier = dumper.expect.creatorLaunches!.mints.filter((m) => m !== dumper.address);
      assert.equal(earlier.length, 12);
      const list = (results.get(`${profile} pumpfun:dumper-latest`)!.evidence as any).creator_launches.list;
      for (const mint of earlier) {
        assert.equal(list.find((l: { mint: string }) => l.mint === mint)?.state, 'dead', mint);
      }
    });
  }
});

describe('scanners through the public endpoint’s rate limit', { timeout: 120_000 }, () => {
  let chain: SandboxChain;
  let manifest: ScenarioManifest;
  let server: SandboxRpc;
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    // The public endpoint's rules with a limit small enough that one scan runs into it.
    const rateLimit = { windowMs: 1_000, perIp: 1_000, perMethod: 1 };
    server = await startSandboxRpc({
      chain,
      host: '127.0.0.1',
      port: 0,
      profile: { name: 'public-mainnet', rateLimit },
    });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  it('a token scan runs into 429s and still delivers, through the service’s retrying RPC client', async () => {
    // A mint whose launch is not read (no history here, as an old token's page is full): the two
    // rounds every token scan makes. A young token's launch round sends up to 10 getTransaction
    // at once, more than a limit of 1 per method lets through: docs/risk-model.md says so.
    const mint = (manifest.subjects.find((s) => s.name === 'mainnet:usdt') as { address: string }).address;
    const scanWith = (rpc: SolanaRpc) =>
      SCANNERS.token(mint, { rpc, now: Date.now, signal: scanDeadline(60_000).signal });
    await assert.rejects(
      (async () => {
        // Without retries, the second call of a method within the window is refused.
        for (let i = 0; i < 2; i++) await scanWith(createSolanaRpc(server.url) as unknown as SolanaRpc);
      })(),
      /429|Too many requests/i,
    );
    await new Promise((r) => setTimeout(r, 1_100)); // a fresh window for the run that counts
    const rpc = createRpc({ urls: [server.url], timeoutMs: 5_000 });
    const first = await scanWith(rpc);
    const second = await scanWith(rpc); // within the same window: answered only after a 429
    for (const { result } of [first, second]) {
      assert.ok(result.flags.includes('HOLDERS_UNAVAILABLE'), String(result.flags));
    }
  });
});
