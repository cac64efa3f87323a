/** Change detection (pure), what is followed per kind (from real scans' evidence), and the periodic budget. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import type { ScanResult } from '../../../src/contract/schemas.js';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { TOKEN_PROGRAM } from '../../../src/solana/programs.js';
import type { WatchKind } from '../../../src/watch/model.js';
import { followedAccounts, SCORE_EPSILON, verdictChange } from '../../../src/watch/triggers/index.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';
import { Recorder, sandboxRpc, scansOn, triggersFor, watchOn } from './helpers.js';

const result = (risk_score: number, flags: string[]): ScanResult => ({
  risk_score,
  flags,
  confidence: 1,
  summary: '',
  recommendation: '',
  reasoning: [],
});

describe('verdictChange', () => {
  it('is null for the same flags (in any order) and a score within the epsilon', () => {
    assert.equal(verdictChange(result(0.5, ['A', 'B']), result(0.5 + SCORE_EPSILON / 2, ['B', 'A'])), null);
  });

  it('names the flags added and removed, and the scores', () => {
    assert.deepEqual(
      verdictChange(result(0.6, ['LP_PULLABLE', 'X']), result(0, ['X', 'LP_BURNED_OR_LOCKED'])),
      {
        scoreBefore: 0.6,
        scoreAfter: 0,
        flagsAdded: ['LP_BURNED_OR_LOCKED'],
        flagsRemoved: ['LP_PULLABLE'],
      },
    );
  });

  it('reports a score move beyond the epsilon with the same flags', () => {
    const changed = verdictChange(result(0.4, ['A']), result(0.4 + 2 * SCORE_EPSILON, ['A']));
    assert.deepEqual(changed?.flagsAdded, []);
    assert.deepEqual(changed?.flagsRemoved, []);
  });
});

describe('followed accounts and the periodic budget, on the seeded sandbox', { timeout: 120_000 }, () => {
  const sandbox = useSeededSandbox();
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops) await stop();
  });
  const scan = () => scansOn(sandboxRpc(sandbox.server.url));

  it('a token: the mint, its authority and the authority’s token account of it', async () => {
    const s = subject(sandbox.manifest, 'token', 'token:authorities-live');
    const accounts = await followedAccounts('token', s.address, await scan()('token', s.address));
    const authority = s.expect.mintAuthority as Address;
    const [own] = await findAssociatedTokenPda({
      owner: authority,
      mint: s.address as Address,
      tokenProgram: TOKEN_PROGRAM,
    });
    assert.equal(accounts[0], s.address);
    assert.ok(accounts.includes(authority) && accounts.includes(own), String(accounts));
  });

  it('a token with a pool: the pool, its LP mint and the LP holder’s account', async () => {
    const s = subject(sandbox.manifest, 'token', 'token:pool-lp-creator');
    const accounts = await followedAccounts('token', s.address, await scan()('token', s.address));
    const market = s.expect.market!;
    for (const a of [market.pool, market.lpMint!, market.lpHolders![0]!.tokenAccount, market.baseVault]) {
      assert.ok(accounts.includes(a), `${a} in ${accounts}`);
    }
  });

  it('a pump.fun coin: its bonding curve and creator; a program: its ProgramData and authority; a wallet: itself', async () => {
    const coin = subject(sandbox.manifest, 'pumpfun', 'pumpfun:dev-holding');
    const coinAccounts = await followedAccounts(
      'pumpfun',
      coin.address,
      await scan()('pumpfun', coin.address),
    );
    assert.ok(coinAccounts.includes(coin.expect.bondingCurve) && coinAccounts.includes(coin.expect.creator));
    const program = subject(sandbox.manifest, 'program', 'program:single-key');
    assert.deepEqual(
      await followedAccounts('program', program.address, await scan()('program', program.address)),
      [program.address, program.expect.programData, program.expect.upgradeAuthority],
    );
    const wallet = subject(sandbox.manifest, 'wallet', 'wallet:old-active');
    assert.deepEqual(
      await followedAccounts('wallet', wallet.address, await scan()('wallet', wallet.address)),
      [wallet.address],
    );
  });

  it('each periodic check re-scans at most the budget, least recently scanned first, until all were', async () => {
    const names = [
      'token:clean',
      'token:concentrated',
      'token:no-market',
      'program:immutable',
      'wallet:burner',
    ];
    const fresh = scan();
    const watches = await Promise.all(
      names.map((name) => {
        const s = sandbox.manifest.subjects.find((x) => x.name === name) as unknown as {
          kind: WatchKind;
          address: string;
        };
        return watchOn(fresh, s.kind, s.address);
      }),
    );
    const scanned: string[] = [];
    const budget = 2;
    const recorder = new Recorder();
    const triggers = triggersFor(
      watches,
      async (kind, address) => {
        scanned.push(address);
        return fresh(kind, address);
      },
      null,
      recorder,
      budget,
    );
    stops.push(() => triggers.stop());
    await triggers.check();
    assert.equal(scanned.length, budget);
    await triggers.check();
    await triggers.check();
    assert.equal(scanned.length, 3 * budget);
    assert.deepEqual(new Set(scanned).size, names.length, 'every subject scanned within three checks');
    assert.deepEqual(recorder.changes, []);
  });

  it('started, a check spreads its budget over the interval: one re-scan, then a pause that stop ends', async () => {
    const fresh = scan();
    const watches = await Promise.all(
      ['token:clean', 'program:immutable'].map((name) => {
        const s = sandbox.manifest.subjects.find((x) => x.name === name) as unknown as {
          kind: WatchKind;
          address: string;
        };
        return watchOn(fresh, s.kind, s.address);
      }),
    );
    const recorder = new Recorder();
    const triggers = triggersFor(watches, fresh, null, recorder, 2);
    // An hour's interval for a budget of 2: the second re-scan would come half an hour after the first.
    triggers.start(3_600_000);
    await recorder.until(() => recorder.rescans.length === 1);
    await triggers.stop();
    assert.deepEqual(recorder.rescans, [{ reason: 'periodic', outcome: 'ok' }]);
  });
});
