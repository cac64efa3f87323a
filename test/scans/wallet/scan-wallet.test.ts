/** /scan/wallet on wallets with real transaction history in the seeded sandbox, in at most two round trips. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, generateKeyPairSigner } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanWallet } from '../../../src/scans/wallet/index.js';
import { countingTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

describe('scanWallet on the seeded sandbox', () => {
  const sandbox = useSeededSandbox();

  const scan = async (address: string, wrap = (t: ReturnType<typeof createDefaultRpcTransport>) => t) => {
    const counter = countingTransport(wrap(createDefaultRpcTransport({ url: sandbox.server.url })));
    const { result } = await scanWallet(address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, roundTrips: counter.roundTrips(), evidence: result.evidence as any };
  };

  it('an old, active wallet: low risk, its history counted exactly, two round trips', async () => {
    const s = subject(sandbox.manifest, 'wallet', 'wallet:old-active');
    const { result, roundTrips, evidence } = await scan(s.address);
    assert.ok(roundTrips <= 2, `${roundTrips} round trips`);
    assert.equal(evidence.transactions_read, s.expect.signatureCount);
    assert.equal(evidence.failed_transactions, 0);
    assert.equal(evidence.first_seen, new Date(s.expect.firstBlockTime * 1000).toISOString());
    assert.equal(evidence.balance_lamports, s.expect.lamports);
    assert.equal(evidence.account_kind, 'wallet');
    assert.ok(result.risk_score < 0.2, `risk ${result.risk_score}: ${result.flags}`);
  });

  it('a burner funded then drained seconds later: FUNDED_THEN_DRAINED and QUICK_FIRST_ACTION', async () => {
    const s = subject(sandbox.manifest, 'wallet', 'wallet:burner');
    const { result, evidence } = await scan(s.address);
    assert.ok(result.flags.includes('FUNDED_THEN_DRAINED'), String(result.flags));
    assert.equal(evidence.flags.FUNDED_THEN_DRAINED.drain_signature, s.expect.drain?.signature);
    assert.ok(result.flags.includes('QUICK_FIRST_ACTION'));
    assert.equal(
      evidence.flags.QUICK_FIRST_ACTION.seconds_after_funding,
      s.expect.drain?.secondsAfterFunding,
    );
    assert.ok(result.flags.includes('FEW_TRANSACTIONS'));
    assert.ok(result.risk_score >= 0.5, `risk ${result.risk_score}`);
  });

  it('a wallet whose transactions mostly fail: HIGH_FAILURE_RATE with the exact counts', async () => {
    const s = subject(sandbox.manifest, 'wallet', 'wallet:high-failure');
    const { result, evidence } = await scan(s.address);
    assert.ok(result.flags.includes('HIGH_FAILURE_RATE'));
    assert.equal(evidence.flags.HIGH_FAILURE_RATE.failed, s.expect.failedCount);
    assert.equal(evidence.flags.HIGH_FAILURE_RATE.total, s.expect.signatureCount);
  });

  it('orders risk: old and active < failing < burner', async () => {
    const risk = async (name: string) =>
      (await scan(subject(sandbox.manifest, 'wallet', name).address)).result.risk_score;
    const [old, failing, burner] = [
      await risk('wallet:old-active'),
      await risk('wallet:high-failure'),
      await risk('wallet:burner'),
    ];
    assert.ok(old < failing && failing < burner, `${old} < ${failing} < ${burner}`);
  });

  it('a token mint or a program is not a wallet: NOT_A_WALLET says what it is', async () => {
    const mint = await scan(subject(sandbox.manifest, 'token', 'token:clean').address);
    assert.ok(mint.result.flags.includes('NOT_A_WALLET'));
    assert.equal(mint.evidence.account_kind, 'mint');
    const program = await scan(subject(sandbox.manifest, 'program', 'program:immutable').address);
    assert.equal(program.evidence.account_kind, 'program');
  });

  it('an address never used is an answer with low confidence', async () => {
    const { result } = await scan((await generateKeyPairSigner()).address);
    assert.deepEqual(result.flags, ['WALLET_UNUSED']);
    assert.ok(result.confidence < 1);
  });

  it('an unreadable history lowers confidence, it never makes the wallet look safer', async () => {
    const s = subject(sandbox.manifest, 'wallet', 'wallet:old-active');
    const full = await scan(s.address);
    const blind = await scan(s.address, (t) => failingTransport(t, (m) => m === 'getSignaturesForAddress'));
    assert.ok(blind.result.flags.includes('HISTORY_UNAVAILABLE'));
    assert.ok(blind.result.confidence < full.result.confidence);
    assert.ok(blind.result.risk_score >= full.result.risk_score);
  });
});
