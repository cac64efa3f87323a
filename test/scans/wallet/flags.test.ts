/** assessWallet, flag by flag: the condition that raises it and the closest one that must not. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, getProgramDerivedAddress } from '@solana/kit';
import { assessWallet } from '../../../src/scans/wallet/assess.js';
import {
  type BalanceMove,
  HISTORY_LIMIT,
  type SignatureEntry,
  type WalletFacts,
} from '../../../src/scans/wallet/facts.js';
import { WALLET_FLAGS } from '../../../src/scans/wallet/flags.js';
import { SYSTEM_PROGRAM, TOKEN_PROGRAM } from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';

const SOL = 1_000_000_000n;
const NOW = 1_800_000_000;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** `count` signatures, newest first: the newest an hour ago, the oldest `oldestAgeSeconds` ago. */
function history(count: number, oldestAgeSeconds: number, failed = 0): SignatureEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const age = count === 1 ? oldestAgeSeconds : HOUR + ((oldestAgeSeconds - HOUR) * i) / (count - 1);
    return {
      signature: `sig${i}`,
      slot: BigInt(1_000_000 - i),
      blockTime: Math.round(NOW - age),
      failed: i < failed,
    };
  });
}

const move = (
  signature: string,
  blockTime: number,
  pre: bigint,
  post: bigint,
  signer: boolean,
): BalanceMove => ({
  signature,
  blockTime,
  pre,
  post,
  signer,
});

describe('assessWallet, flag by flag', () => {
  const flags = flagCoverage(WALLET_FLAGS);
  let wallet: Address;
  let pda: Address;
  /** An established wallet: 100 days old, 20 transactions, none failed, 5 SOL. */
  let facts: (over?: Partial<WalletFacts>) => WalletFacts;

  before(async () => {
    wallet = (await generateKeyPairSigner()).address;
    [pda] = await getProgramDerivedAddress({ programAddress: SYSTEM_PROGRAM, seeds: ['vault'] });
    facts = (over = {}) => ({
      address: wallet,
      account: { owner: SYSTEM_PROGRAM, executable: false, lamports: 5n * SOL, dataLength: 0 },
      history: history(20, 100 * DAY),
      historyError: null,
      moves: [],
      nowSeconds: NOW,
      ...over,
    });
  });

  it('an established wallet raises nothing and is "proceed"', () => {
    const result = assessWallet(facts());
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
    assert.equal(result.confidence, 1);
  });

  it('NOT_A_WALLET: a token account (owner SPL Token, 165 bytes) or a program-derived address; not a system wallet', () => {
    const tokenAccount = facts({
      account: { owner: TOKEN_PROGRAM, executable: false, lamports: 2_039_280n, dataLength: 165 },
    });
    flags.raised(assessWallet(tokenAccount), 'NOT_A_WALLET', {
      account_kind: 'token_account',
      owner: TOKEN_PROGRAM,
    });
    assert.match(assessWallet(tokenAccount).summary, /^Address /);
    const vault = facts({ address: pda });
    flags.raised(assessWallet(vault), 'NOT_A_WALLET', { account_kind: 'pda', owner: SYSTEM_PROGRAM });
    const program = facts({
      account: { owner: TOKEN_PROGRAM, executable: true, lamports: 1n, dataLength: 36 },
    });
    flags.raised(assessWallet(program), 'NOT_A_WALLET', { account_kind: 'program' });
    flags.notRaised(assessWallet(facts()), 'NOT_A_WALLET');
  });

  it('WALLET_UNUSED: no account and no transaction; not when one transaction exists', () => {
    const unused = assessWallet(facts({ account: null, history: [] }));
    flags.raised(unused, 'WALLET_UNUSED', { address: wallet });
    assert.ok(unused.confidence < 1, 'nothing known lowers confidence');
    flags.notRaised(assessWallet(facts({ account: null, history: history(1, 30 * DAY) })), 'WALLET_UNUSED');
  });

  it('FRESH_WALLET: first seen under 7 days ago (full strength under a day); not at 7 days and a minute', () => {
    const hoursOld = assessWallet(facts({ history: history(10, 20 * HOUR) }));
    const full = flags.raised(hoursOld, 'FRESH_WALLET', {
      age_hours: 20,
      first_seen: new Date((NOW - 20 * HOUR) * 1000).toISOString(),
    });
    const daysOld = assessWallet(facts({ history: history(10, 7 * DAY - 60) }));
    const half = flags.raised(daysOld, 'FRESH_WALLET');
    assert.ok((full.weight_applied as number) > (half.weight_applied as number), 'under a day weighs more');
    flags.notRaised(assessWallet(facts({ history: history(10, 7 * DAY + 60) })), 'FRESH_WALLET');
  });

  it('FRESH_WALLET is not claimed from a truncated history: the oldest read is only a lower bound', () => {
    const busy = assessWallet(facts({ history: history(HISTORY_LIMIT, 2 * DAY) }));
    flags.notRaised(busy, 'FRESH_WALLET');
  });

  it('FEW_TRANSACTIONS: 4 transactions in all; not 5', () => {
    flags.raised(assessWallet(facts({ history: history(4, 100 * DAY) })), 'FEW_TRANSACTIONS', {
      transactions: 4,
    });
    flags.notRaised(assessWallet(facts({ history: history(5, 100 * DAY) })), 'FEW_TRANSACTIONS');
  });

  it('FUNDED_THEN_DRAINED: 10 SOL in, 9.95 out, 0.05 kept (≤ 1 %); not when 0.2 SOL (2 %) stays', () => {
    const t0 = NOW - 3 * DAY;
    const drained = facts({
      account: { owner: SYSTEM_PROGRAM, executable: false, lamports: 50_000_000n, dataLength: 0 },
      moves: [move('fund', t0, 0n, 10n * SOL, false), move('drain', t0 + 600, 10n * SOL, 50_000_000n, true)],
    });
    flags.raised(assessWallet(drained), 'FUNDED_THEN_DRAINED', {
      funding_signature: 'fund',
      drain_signature: 'drain',
      drained_lamports: String(10n * SOL - 50_000_000n),
      balance_lamports: '50000000',
    });
    const kept = facts({
      account: { owner: SYSTEM_PROGRAM, executable: false, lamports: 200_000_000n, dataLength: 0 },
      moves: [move('fund', t0, 0n, 10n * SOL, false), move('drain', t0 + 600, 10n * SOL, 200_000_000n, true)],
    });
    flags.notRaised(assessWallet(kept), 'FUNDED_THEN_DRAINED');
    // Someone else taking the SOL (the wallet did not sign) is not the wallet draining itself.
    const taken = facts({
      account: { owner: SYSTEM_PROGRAM, executable: false, lamports: 0n, dataLength: 0 },
      moves: [move('fund', t0, 0n, 10n * SOL, false), move('drain', t0 + 600, 10n * SOL, 0n, false)],
    });
    flags.notRaised(assessWallet(taken), 'FUNDED_THEN_DRAINED');
  });

  it('QUICK_FIRST_ACTION: the first signed transaction 60 s after funding; not 61 s', () => {
    const t0 = NOW - 3 * DAY;
    const at = (seconds: number) =>
      facts({
        moves: [move('fund', t0, 0n, 2n * SOL, false), move('act', t0 + seconds, 2n * SOL, SOL, true)],
      });
    flags.raised(assessWallet(at(60)), 'QUICK_FIRST_ACTION', {
      funding_signature: 'fund',
      first_action_signature: 'act',
      seconds_after_funding: 60,
    });
    flags.notRaised(assessWallet(at(61)), 'QUICK_FIRST_ACTION');
  });

  it('HIGH_FAILURE_RATE: 3 of 10 failed (30 %); not 2 of 10, nor 4 of 4 (too few to judge)', () => {
    const raised = flags.raised(
      assessWallet(facts({ history: history(10, 100 * DAY, 3) })),
      'HIGH_FAILURE_RATE',
      {
        failed: 3,
        total: 10,
        failure_rate: 0.3,
      },
    );
    const all = flags.raised(
      assessWallet(facts({ history: history(10, 100 * DAY, 6) })),
      'HIGH_FAILURE_RATE',
    );
    assert.ok((all.weight_applied as number) > (raised.weight_applied as number), 'more failures weigh more');
    flags.notRaised(assessWallet(facts({ history: history(10, 100 * DAY, 2) })), 'HIGH_FAILURE_RATE');
    flags.notRaised(assessWallet(facts({ history: history(4, 100 * DAY, 4) })), 'HIGH_FAILURE_RATE');
  });

  it(`HISTORY_TRUNCATED: ${HISTORY_LIMIT} transactions read (the page was full); not ${HISTORY_LIMIT - 1}`, () => {
    const full = assessWallet(facts({ history: history(HISTORY_LIMIT, 100 * DAY) }));
    flags.raised(full, 'HISTORY_TRUNCATED', { transactions_read: HISTORY_LIMIT });
    assert.ok(full.confidence < 1);
    flags.notRaised(
      assessWallet(facts({ history: history(HISTORY_LIMIT - 1, 100 * DAY) })),
      'HISTORY_TRUNCATED',
    );
  });

  it('HISTORY_UNAVAILABLE: the history could not be read; confidence drops, the score does not', () => {
    const known = assessWallet(facts());
    const blind = assessWallet(facts({ history: null, historyError: 'injected: 503' }));
    flags.raised(blind, 'HISTORY_UNAVAILABLE', { reason: 'injected: 503' });
    assert.ok(blind.confidence < known.confidence);
    assert.ok(blind.risk_score >= known.risk_score, 'unknown never lowers risk');
    flags.notRaised(assessWallet(facts({ history: [] })), 'HISTORY_UNAVAILABLE');
  });

  it('the burner shape scores above a failing wallet, which scores above an established one', () => {
    const t0 = NOW - 2 * HOUR;
    const burner = assessWallet(
      facts({
        account: { owner: SYSTEM_PROGRAM, executable: false, lamports: 0n, dataLength: 0 },
        history: history(2, 2 * HOUR),
        moves: [move('fund', t0, 0n, 10n * SOL, false), move('drain', t0 + 5, 10n * SOL, 0n, true)],
      }),
    );
    const failing = assessWallet(facts({ history: history(20, 100 * DAY, 12) }));
    const established = assessWallet(facts());
    assert.ok(established.risk_score < failing.risk_score && failing.risk_score < burner.risk_score);
  });

  it('every wallet flag has a raising test above', () => {
    flags.assertEveryFlagRaised();
  });
});
