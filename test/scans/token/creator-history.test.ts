/**
 * /scan/token on a pump.fun mint runs the creator history /scan/pumpfun runs, through the same
 * code: the same flags and the same `creator_launches` evidence, under each provider profile. A
 * mint with no pump.fun curve says so in its evidence and is otherwise scanned exactly as before:
 * the same calls, round trips, flags, score and reasoning, and no probe asked for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { address, createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { RpcProfileName } from '../../../src/sandbox/rpc/profiles.js';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import { assessToken } from '../../../src/scans/token/assess.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { readToken } from '../../../src/scans/token/schedule.js';
import type { SolanaRpc } from '../../../src/solana/rpc.js';
import { PROFILES, type ProfileScans, startProfileScans } from '../../helpers/profile-scans.js';
import { countingTransport } from '../../helpers/rpc-transports.js';

const CREATOR_FLAGS = ['CREATOR_SERIAL_LAUNCHER', 'CREATOR_DEV_DUMP', 'CREATOR_HISTORY_UNAVAILABLE'];

describe('/scan/token: a pump.fun mint’s creator history, as /scan/pumpfun reads it', {
  timeout: 300_000,
}, () => {
  let sandbox: ProfileScans;
  const both = async (profile: RpcProfileName, name: string) => {
    const mint = subject(sandbox.manifest, 'pumpfun', name).address;
    const token = await sandbox.scan(profile, scanToken, mint);
    const pumpfun = await sandbox.scan(profile, scanPumpfun, mint);
    return { token, pumpfun };
  };
  /** The creator flags, their evidence and `creator_launches` are the same on both scans. */
  const sameHistory = (token: any, pumpfun: any, label: string) => {
    const creatorFlags = (r: any) => r.result.flags.filter((f: string) => CREATOR_FLAGS.includes(f));
    assert.deepEqual(creatorFlags(token), creatorFlags(pumpfun), label);
    for (const code of creatorFlags(token)) {
      assert.deepEqual(token.evidence.flags[code], pumpfun.evidence.flags[code], `${label}: ${code}`);
    }
    assert.deepEqual(token.evidence.creator_launches, pumpfun.evidence.creator_launches, label);
    assert.equal(token.evidence.creator, pumpfun.evidence.creator, label);
  };

  before(async () => {
    sandbox = await startProfileScans();
  });
  after(() => sandbox.close());

  for (const profile of ['ideal', 'indexed-provider'] as const) {
    it(`${profile}: the serial launcher whose earlier token accounts are closed is CREATOR_SERIAL_LAUNCHER`, async () => {
      const { token, pumpfun } = await both(profile, 'pumpfun:serial-closed');
      assert.ok(token.result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(token.result.flags));
      sameHistory(token, pumpfun, profile);
      assert.ok(
        token.result.reasoning.some((line) =>
          /^creator \S+: \d+ launch\(es\), \d+ graduated, \d+ dead$/.test(line),
        ),
        String(token.result.reasoning),
      );
      assert.equal(token.calls.includes('getProgramAccounts'), profile === 'ideal');
      // /scan/pumpfun stays within 4; /scan/token's insider trace waits one round longer here.
      assert.ok(pumpfun.roundTrips <= 4, `/scan/pumpfun: ${pumpfun.roundTrips} round trips`);
      assert.ok(token.roundTrips <= 5, `/scan/token: ${token.roundTrips} round trips`);
    });
  }

  it('public-mainnet: getProgramAccounts refused and named; the scan is delivered', async () => {
    const { token, pumpfun } = await both('public-mainnet', 'pumpfun:serial-closed');
    assert.match(token.evidence.creator_launches.sources.program_accounts, /410|disabled/);
    sameHistory(token, pumpfun, 'public-mainnet');
  });

  it('a dev dump is CREATOR_DEV_DUMP under every profile, with the same evidence as /scan/pumpfun', async () => {
    for (const profile of PROFILES) {
      const { token, pumpfun } = await both(profile, 'pumpfun:dev-dump');
      assert.ok(token.result.flags.includes('CREATOR_DEV_DUMP'), `${profile}: ${token.result.flags}`);
      sameHistory(token, pumpfun, profile);
    }
  });

  it('first-time creators are never serial launchers, under any profile', async () => {
    for (const profile of PROFILES) {
      for (const name of ['pumpfun:dev-dump', 'pumpfun:curve-active', 'pumpfun:launch-fair']) {
        const { token, pumpfun } = await both(profile, name);
        assert.ok(
          !token.result.flags.includes('CREATOR_SERIAL_LAUNCHER'),
          `${name}, ${profile}: ${token.result.flags}`,
        );
        sameHistory(token, pumpfun, `${name}, ${profile}`);
      }
    }
  });
});

describe('/scan/token: a mint not on pump.fun is scanned as before', { timeout: 300_000 }, () => {
  let sandbox: ProfileScans;
  before(async () => {
    sandbox = await startProfileScans();
  });
  after(() => sandbox.close());

  /** The token scan as it was before pump.fun mints got their creator history: no extension. */
  const unextended = async (url: string, mint: string) => {
    const counter = countingTransport(createDefaultRpcTransport({ url }));
    const rpc = createSolanaRpcFromTransport(counter.transport) as unknown as SolanaRpc;
    const { view, liquidity } = await readToken(rpc, address(mint), () => 1_900_000_000_000);
    return { result: assessToken(view, undefined, liquidity), counter };
  };
  const extended = async (url: string, mint: string) => {
    const counter = countingTransport(createDefaultRpcTransport({ url }));
    let asked = 0;
    const { result } = await scanToken(mint, {
      rpc: createSolanaRpcFromTransport(counter.transport) as unknown as SolanaRpc,
      now: () => 1_900_000_000_000,
      askServes: async () => {
        asked++;
        return undefined;
      },
    });
    return { result, counter, asked };
  };

  it('the same calls, round trips, flags, score and reasoning; only `creator_launches` says it is not a pump.fun mint', async () => {
    const names = sandbox.manifest.subjects
      .filter((s) => s.kind === 'token' && 'address' in s && !s.name.startsWith('mainnet:'))
      .map((s) => s.name);
    assert.ok(names.includes('token:clean') && names.length >= 10, String(names));
    for (const name of names) {
      const mint = subject(sandbox.manifest, 'token', name).address;
      const url = sandbox.url('ideal');
      const old = await unextended(url, mint);
      const now = await extended(url, mint);
      assert.equal(now.asked, 0, `${name}: no probe asked for`);
      assert.deepEqual(now.counter.calls.sort(), old.counter.calls.sort(), `${name}: the same calls`);
      assert.equal(now.counter.roundTrips(), old.counter.roundTrips(), `${name}: the same round trips`);
      const { creator_launches: said, ...evidence } = now.result.evidence as Record<string, any>;
      // A simulation's logs count compute units, which vary with the fresh recipient each one draws.
      const units = (r: unknown) =>
        JSON.stringify(r).replace(/consumed \d+ of \d+ compute units/g, 'consumed … compute units');
      assert.equal(units({ ...now.result, evidence }), units(old.result), name);
      assert.equal(said.checked, false);
      assert.match(said.reason, /^not a pump\.fun mint: no pump\.fun bonding curve at \w+/);
    }
  });
});
