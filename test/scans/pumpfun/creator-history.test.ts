/**
 * Creator history that a closed token account cannot hide, on the seeded sandbox answering as each
 * provider does: getProgramAccounts where the probe says it is served (ideal), the creator's own
 * transactions everywhere, and a refusal that says why, never a failed scan.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ScanResult } from '../../../src/contract/schemas.js';
import type { RpcProfileName } from '../../../src/sandbox/rpc/profiles.js';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import { PROFILES, type ProfileScans, startProfileScans } from '../../helpers/profile-scans.js';

describe('pump.fun creator history under each provider', { timeout: 300_000 }, () => {
  let sandbox: ProfileScans;
  const scan = (profile: RpcProfileName, name: string) =>
    sandbox.scan(profile, scanPumpfun, subject(sandbox.manifest, 'pumpfun', name).address);

  before(async () => {
    sandbox = await startProfileScans();
  });
  after(() => sandbox.close());

  it('ideal: getProgramAccounts runs, finds all thirteen coins although twelve token accounts are closed, complete', async () => {
    const coin = subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-closed');
    const { result, evidence, roundTrips, calls } = await scan('ideal', 'pumpfun:serial-closed');
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    assert.ok(!result.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(result.flags));
    const history = evidence.creator_launches;
    assert.equal(history.launches, 13);
    assert.equal(history.list_complete, true);
    assert.match(history.sources.program_accounts, /^read: 13 curve/);
    // getProgramAccounts returns curves, not mints: the mints are named where another source saw them.
    assert.deepEqual(
      history.list.map((l: { curve: string }) => l.curve).sort(),
      [...coin.expect.creatorLaunches!.curves].sort(),
    );
    assert.ok(history.list.every((l: { state: string }) => l.state === 'dead'));
    assert.ok(calls.includes('getProgramAccounts'), String(calls));
    assert.ok(roundTrips <= 4, `${roundTrips} round trips`);
  });

  it('indexed-provider: getProgramAccounts refused (said), the creator’s transactions still find a serial launcher', async () => {
    const { result, evidence, roundTrips, calls } = await scan('indexed-provider', 'pumpfun:serial-closed');
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    const history = evidence.creator_launches;
    assert.match(history.sources.program_accounts, /Too many accounts requested/);
    assert.ok(!calls.includes('getProgramAccounts'), 'the probe said it is refused: not sent');
    assert.ok(history.launches >= 5, `${history.launches} launches`);
    assert.ok(history.sources.transactions.read > 0);
    assert.ok(history.sources.transactions.cut > 0, 'the bound cut the oldest: said');
    assert.equal(history.list_complete, false);
    assert.ok(evidence.flags.CREATOR_SERIAL_LAUNCHER.died_young >= 3);
    assert.ok(roundTrips <= 4, `${roundTrips} round trips`);
  });

  it('public-mainnet: the refusal is named, the transactions still read; the scan never fails', async () => {
    const { result, evidence } = await scan('public-mainnet', 'pumpfun:serial-closed');
    assert.match(evidence.creator_launches.sources.program_accounts, /410|disabled/);
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
  });

  it('a dev dump is CREATOR_DEV_DUMP under every profile, with what was bought, sold and when', async () => {
    for (const profile of PROFILES) {
      const { result, evidence } = await scan(profile, 'pumpfun:dev-dump');
      assert.ok(result.flags.includes('CREATOR_DEV_DUMP'), `${profile}: ${result.flags}`);
      const dump = evidence.flags.CREATOR_DEV_DUMP;
      assert.equal(dump.dev_buy, String(50_000_000_000_000n), profile);
      assert.equal(dump.sold, dump.dev_buy, profile);
      assert.ok(
        dump.seconds_after_creation >= 290 && dump.seconds_after_creation <= 310,
        `${dump.seconds_after_creation}`,
      );
    }
  });

  it('first-time creators are never serial launchers, under any profile', async () => {
    for (const profile of PROFILES) {
      for (const name of ['pumpfun:dev-dump', 'pumpfun:curve-active', 'pumpfun:launch-fair']) {
        const { result } = await scan(profile, name);
        const flags: ScanResult['flags'] = result.flags;
        assert.ok(!flags.includes('CREATOR_SERIAL_LAUNCHER'), `${name} under ${profile}: ${flags}`);
      }
    }
  });
});
