/**
 * /scan/token on the seeded sandbox tokens (created with the real SPL Token and Token-2022
 * programs) and on real mainnet mints, in at most two round trips.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  address,
  createDefaultRpcTransport,
  createSolanaRpc,
  createSolanaRpcFromTransport,
} from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { loadAccountFile } from '../../../src/sandbox/chain/dumps.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../src/scans/token/index.js';
import {
  countingTransport,
  failingTransport,
  fullHistoryTransport,
  holdingTransport,
} from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/mainnet/accounts/', import.meta.url));

async function scanWith(
  url: string,
  mint: string,
  wrap = (t: ReturnType<typeof createDefaultRpcTransport>) => t,
) {
  const counter = countingTransport(wrap(createDefaultRpcTransport({ url })));
  const { result } = await scanToken(mint, {
    rpc: createSolanaRpcFromTransport(counter.transport),
    now: Date.now,
  });
  return {
    result,
    roundTrips: counter.roundTrips(),
    calls: counter.calls,
    sent: counter.sent,
    evidence: result.evidence as any,
  };
}

describe('scanToken on the seeded sandbox', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: ScenarioManifest;
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });
  const scan = (
    name: string,
    wrap?: (t: ReturnType<typeof createDefaultRpcTransport>) => ReturnType<typeof createDefaultRpcTransport>,
  ) => scanWith(server.url, subject(manifest, 'token', name).address, wrap);

  it('a clean token: no authority flags, spread holders, low risk, three round trips', async () => {
    const s = subject(manifest, 'token', 'token:clean');
    const { result, roundTrips, evidence } = await scan('token:clean');
    assert.ok(roundTrips <= 3, `${roundTrips} round trips`);
    assert.equal(evidence.supply, s.expect.supply);
    assert.equal(evidence.mint_authority, null);
    assert.ok(!result.flags.some((f) => f.includes('AUTHORITY')), String(result.flags));
    assert.deepEqual(
      result.flags,
      ['MARKET_NONE'],
      'no flag but the missing market: 40 holders, the largest 4 %, the top ten 36 %, and no pool',
    );
    assert.equal(
      evidence.largest_holders_read,
      20,
      'the 20 largest accounts, as getTokenLargestAccounts answers',
    );
    assert.ok(evidence.top10_share > 0.35 && evidence.top10_share < 0.37, String(evidence.top10_share));
    assert.ok(result.risk_score < 0.35, String(result.risk_score));
    assert.equal(result.recommendation, 'No material token risks found; size positions as usual.');
  });

  it('live authorities: both flagged with the authority addresses', async () => {
    const s = subject(manifest, 'token', 'token:authorities-live');
    const { result, evidence } = await scan('token:authorities-live');
    assert.equal(evidence.flags.MINT_AUTHORITY_ACTIVE.mint_authority, s.expect.mintAuthority);
    assert.equal(evidence.flags.FREEZE_AUTHORITY_ACTIVE.freeze_authority, s.expect.freezeAuthority);
    assert.ok(result.flags.includes('METADATA_MUTABLE'));
  });

  it('one holder with 90 %: HOLDER_TOP1_HIGH at full strength with the exact share', async () => {
    const s = subject(manifest, 'token', 'token:concentrated');
    const { result, evidence } = await scan('token:concentrated');
    assert.ok(result.flags.includes('HOLDER_TOP1_HIGH'));
    assert.equal(Math.round(evidence.flags.HOLDER_TOP1_HIGH.top1_share * 10_000), s.expect.topHolderShareBps);
    assert.equal(evidence.flags.HOLDER_TOP1_HIGH.weight_applied, 0.6);
  });

  it('Token-2022 extensions are each found with their values', async () => {
    const delegate = await scan('token:t22-permanent-delegate');
    assert.equal(
      delegate.evidence.flags.PERMANENT_DELEGATE.permanent_delegate,
      subject(manifest, 'token', 'token:t22-permanent-delegate').expect.permanentDelegate,
    );
    const fee = await scan('token:t22-transfer-fee');
    assert.equal(fee.evidence.flags.TRANSFER_FEE.fee_basis_points, 500);
    const rising = await scan('token:t22-transfer-fee-increase');
    assert.equal(rising.evidence.flags.TRANSFER_FEE.fee_basis_points, 100);
    assert.equal(rising.evidence.flags.TRANSFER_FEE_INCREASE_SCHEDULED.fee_basis_points_next, 2500);
    const hook = await scan('token:t22-transfer-hook');
    assert.equal(
      hook.evidence.flags.TRANSFER_HOOK_ACTIVE.transfer_hook_program,
      subject(manifest, 'token', 'token:t22-transfer-hook').expect.transferHook?.programId,
    );
    for (const [name, code] of [
      ['token:t22-default-frozen', 'DEFAULT_STATE_FROZEN'],
      ['token:t22-non-transferable', 'NON_TRANSFERABLE'],
      ['token:t22-pausable', 'TOKEN_PAUSED'],
    ] as const) {
      const { result } = await scan(name);
      assert.ok(result.flags.includes(code), `${name}: ${result.flags}`);
      assert.ok(result.risk_score >= 0.85, `${name} is floored: ${result.risk_score}`);
    }
  });

  it('orders risk: clean < live mint authority < permanent delegate or non-transferable', async () => {
    const risk = async (name: string) => (await scan(name)).result.risk_score;
    const clean = await risk('token:clean');
    const live = await risk('token:authorities-live');
    const delegate = await risk('token:t22-permanent-delegate');
    const nonTransferable = await risk('token:t22-non-transferable');
    assert.ok(clean < live, `${clean} < ${live}`);
    assert.ok(live < delegate && live < nonTransferable, `${live} < ${delegate}, ${nonTransferable}`);
  });

  it('real mainnet mints: PYUSD extensions found and dampened; pump mints with no false authority flags', async () => {
    const pyusd = await scanWith(server.url, '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo');
    for (const code of [
      'PERMANENT_DELEGATE',
      'MINT_AUTHORITY_ACTIVE',
      'FREEZE_AUTHORITY_ACTIVE',
      'TRUSTED_ISSUER',
      'CONFIDENTIAL_TRANSFERS',
    ]) {
      assert.ok(pyusd.result.flags.includes(code), `PYUSD ${code}`);
    }
    assert.ok(pyusd.evidence.flags.PERMANENT_DELEGATE.weight_applied < 0.2, 'dampened as a trusted issuer');
    for (const mint of [
      '3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump',
      'Fw5xoxp3JYrW1ELUCQ98t3MvRiMKSFk7WBEsMs8Gpump',
    ]) {
      const { result } = await scanWith(server.url, mint);
      assert.ok(
        !result.flags.includes('MINT_AUTHORITY_ACTIVE') && !result.flags.includes('FREEZE_AUTHORITY_ACTIVE'),
        `${mint}: ${result.flags}`,
      );
    }
  });

  it('a wallet is not a mint: NOT_A_MINT as an answer', async () => {
    const { result } = await scanWith(server.url, subject(manifest, 'wallet', 'wallet:old-active').address);
    assert.deepEqual(result.flags, ['NOT_A_MINT']);
    assert.ok(result.risk_score >= 0.5);
  });

  it("token age: the mint's first transaction dates it; created days ago is TOKEN_NEW, weeks ago is not", async () => {
    const rpc = createSolanaRpcFromTransport(createDefaultRpcTransport({ url: server.url }));
    const firstOf = async (name: string) => {
      const page = await rpc
        .getSignaturesForAddress(subject(manifest, 'token', name).address as never)
        .send();
      const oldest = page.at(-1)!;
      return { signature: oldest.signature, at: new Date(Number(oldest.blockTime) * 1000).toISOString() };
    };
    const young = await scan('token:t22-permanent-delegate');
    const youngFirst = await firstOf('token:t22-permanent-delegate');
    assert.equal(young.evidence.created_at, youngFirst.at);
    assert.ok(young.result.flags.includes('TOKEN_NEW'), String(young.result.flags));
    assert.equal(young.evidence.flags.TOKEN_NEW.creation_signature, youngFirst.signature);
    assert.ok(young.evidence.age_hours < 7 * 24, String(young.evidence.age_hours));
    assert.ok(young.roundTrips <= 3);

    const old = await scan('token:clean');
    assert.equal(old.evidence.created_at, (await firstOf('token:clean')).at);
    assert.ok(old.evidence.age_hours > 7 * 24, String(old.evidence.age_hours));
    assert.ok(!old.result.flags.includes('TOKEN_NEW'));
  });

  it('the third round leaves without waiting for the launch’s transactions, whose findings still reach the result', async () => {
    const mint = subject(manifest, 'pumpfun', 'pumpfun:launch-bundled').address;
    // The launch's transactions are the first getTransaction calls (round 2): those in the mint's
    // first four slots, 10 at most. A pump.fun mint's creator history reads the creator's own in
    // round 3, and waits for them.
    const page = await createSolanaRpc(server.url).getSignaturesForAddress(address(mint)).send();
    const firstSlot = Math.min(...page.map((e) => Number(e.slot)));
    const inWindow = page.filter((e) => e.err === null && Number(e.slot) <= firstSlot + 3).length;
    let sent = 0;
    const hold = holdingTransport(
      createDefaultRpcTransport({ url: server.url }),
      (m) => m === 'getTransaction' && ++sent <= Math.min(inWindow, 10),
    );
    const { result } = await scanToken(mint, {
      rpc: createSolanaRpcFromTransport(hold.transport),
      now: Date.now,
    });
    assert.equal(hold.releasedBy(), 'a later round');
    assert.ok(result.flags.includes('LAUNCH_BUNDLED'), String(result.flags));
  });

  it('launch forensics: a young bundled launch is read beside the holders (no round trip of its own: three, the third the pools); the same mint behind a full history page (an old token) is not, and says why', async () => {
    const mint = subject(manifest, 'pumpfun', 'pumpfun:launch-bundled').address;
    const young = await scanWith(server.url, mint);
    assert.equal(young.roundTrips, 3);
    // The launch window's 9, and the creator's own that its history read (a pump.fun mint).
    const creatorTransactions = young.evidence.creator_launches.sources.transactions;
    assert.equal(creatorTransactions.cut, 0);
    assert.equal(
      young.calls.filter((m) => m === 'getTransaction').length,
      9 + creatorTransactions.read,
      'the launch window: 9 transactions',
    );
    for (const code of ['LAUNCH_BUNDLED', 'LAUNCH_SNIPERS_HOLD', 'LAUNCH_INSIDERS'])
      assert.ok(young.result.flags.includes(code), `${code} in ${young.result.flags}`);
    const old = await scanWith(server.url, mint, fullHistoryTransport);
    assert.equal(old.roundTrips, 3);
    // The launch sends its transactions in round 2; a pump.fun mint's creator history, its own in round 3.
    const launchReads = old.sent.filter((c) => (c.payload as { method: string }).method === 'getTransaction');
    assert.ok(
      launchReads.every((c) => c.round >= 3),
      'nothing of the launch is read',
    );
    assert.ok(!old.result.flags.some((f) => f.startsWith('LAUNCH_')), String(old.result.flags));
    assert.equal(old.evidence.launch.checked, false);
    assert.match(old.evidence.launch.reason, /more history than one page/);
    assert.ok(old.result.reasoning.some((line) => line.startsWith('launch forensics not run: ')));
    assert.ok(old.result.risk_score < young.result.risk_score, 'not run is no risk');
  });

  it('launch transactions the RPC does not return: LAUNCH_UNAVAILABLE lowers confidence, never the score', async () => {
    const mint = subject(manifest, 'pumpfun', 'pumpfun:launch-fair').address;
    const full = await scanWith(server.url, mint);
    const blind = await scanWith(server.url, mint, (t) => failingTransport(t, (m) => m === 'getTransaction'));
    assert.ok(blind.result.flags.includes('LAUNCH_UNAVAILABLE'), String(blind.result.flags));
    assert.ok(!full.result.flags.includes('LAUNCH_UNAVAILABLE'));
    assert.ok(blind.result.confidence < full.result.confidence);
    assert.ok(blind.result.risk_score >= full.result.risk_score);
  });

  it('a history that cannot be read leaves the age unknown: confidence drops, and unknown is not taken for old', async () => {
    const full = await scan('token:clean');
    const blind = await scan('token:clean', (t) =>
      failingTransport(t, (m) => m === 'getSignaturesForAddress'),
    );
    assert.deepEqual(full.result.flags, ['MARKET_NONE']);
    // The holders' own histories are refused too: insiders by funding say so (INSIDERS_UNAVAILABLE).
    assert.deepEqual([...blind.result.flags].sort(), [
      'INSIDERS_UNAVAILABLE',
      'MARKET_NONE',
      'TOKEN_AGE_UNAVAILABLE',
    ]);
    assert.equal(blind.evidence.created_at, null);
    assert.ok(blind.result.confidence < full.result.confidence);
    assert.ok(
      blind.result.risk_score > full.result.risk_score,
      'an undated token scores above a dated old one',
    );
  });

  it('holder accounts that cannot be read (second round trip) lower confidence, never the score', async () => {
    const full = await scan('token:concentrated');
    let calls = 0;
    // The first getMultipleAccounts reads the mint; the second, the holders' token accounts.
    const blind = await scan('token:concentrated', (t) =>
      failingTransport(t, (m) => m === 'getMultipleAccounts' && ++calls === 2),
    );
    assert.ok(blind.result.flags.includes('HOLDERS_UNAVAILABLE'), String(blind.result.flags));
    assert.ok(blind.result.flags.includes('HOLDER_TOP1_HIGH'), 'balances are still known');
    assert.ok(blind.result.confidence < full.result.confidence);
    assert.ok(blind.result.risk_score >= full.result.risk_score);
  });

  it('holders that cannot be read lower confidence, never the score', async () => {
    const full = await scan('token:concentrated');
    const blind = await scan('token:concentrated', (t) =>
      failingTransport(t, (m) => m === 'getTokenLargestAccounts'),
    );
    assert.ok(blind.result.flags.includes('HOLDERS_UNAVAILABLE'));
    assert.ok(blind.result.confidence < full.result.confidence);
  });
});

describe('scanToken on mainnet dumps loaded as solana-test-validator would', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    for (const file of ['usdc-mint.json', 'pump-legacy-mint-2fWkVf.json', 'wsol-native-mint.json']) {
      await loadAccountFile(chain, FIXTURES + file);
    }
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  it('USDC: both authorities flagged, dampened as a trusted issuer', async () => {
    const { result, evidence } = await scanWith(server.url, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    assert.equal(
      evidence.flags.MINT_AUTHORITY_ACTIVE.mint_authority,
      'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG',
    );
    assert.equal(
      evidence.flags.FREEZE_AUTHORITY_ACTIVE.freeze_authority,
      '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar',
    );
    assert.equal(evidence.flags.MINT_AUTHORITY_ACTIVE.weight_applied, 0.12);
    assert.ok(result.flags.includes('TRUSTED_ISSUER'));
    assert.ok(result.risk_score < 0.5, `risk ${result.risk_score}`);
  });

  it('the legacy pump.fun mint whose revoked authorities keep stale key bytes: no authority flag', async () => {
    const { result, evidence } = await scanWith(server.url, '2fWkVf417bfxEgUemymkYNagXVitnmNxvq7dhUwnpump');
    assert.ok(!result.flags.includes('NOT_A_MINT'), String(result.flags));
    assert.equal(evidence.mint_authority, null);
    assert.equal(evidence.freeze_authority, null);
    assert.ok(!result.flags.includes('MINT_AUTHORITY_ACTIVE'), String(result.flags));
    assert.ok(!result.flags.includes('FREEZE_AUTHORITY_ACTIVE'));
  });

  it('wSOL: supply 0 is not a risk for the native mint', async () => {
    const { result, evidence } = await scanWith(server.url, 'So11111111111111111111111111111111111111112');
    assert.equal(evidence.supply, '0');
    assert.ok(!result.flags.includes('SUPPLY_ZERO'));
  });
});
