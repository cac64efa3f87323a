/**
 * assessWallet (pure) on WalletFacts built here from an established-wallet baseline plus
 * overrides: for every flag in WALLET_FLAGS, the smallest facts that raise it (every catalog
 * evidence key, value by value) and the closest facts that must not, at the exact boundaries of
 * docs/risk-model.md: fresh under 7 days (full strength under 24 hours), under 5 transactions, a
 * failure rate of 30 % or more over at least 5, a drain of 90 % or more of what was received
 * with under 1 % left, a first action within 60 seconds, a full page of HISTORY_LIMIT
 * signatures. Every result produced here is also checked against the invariants of the model.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  getProgramDerivedAddress,
  isOffCurveAddress,
} from '@solana/kit';
import fc from 'fast-check';
import { assessWallet } from '../../../src/scans/wallet/assess.js';
import {
  type BalanceMove,
  HISTORY_LIMIT,
  type SignatureEntry,
  type WalletAccount,
  type WalletFacts,
} from '../../../src/scans/wallet/facts.js';
import { WALLET_FLAGS } from '../../../src/scans/wallet/flags.js';
import {
  BPF_UPGRADEABLE_LOADER,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../../../src/solana/programs.js';
import { assessCoverage, evidenceOf } from '../../helpers/flag-coverage.js';

// ---------------------------------------------------------------------------------------------
// Facts
// ---------------------------------------------------------------------------------------------

const SOL = 1_000_000_000n;
const NOW = 1_800_000_000;
const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t * 1000).toISOString();

/** A deterministic on-curve address: someone holds its private key. */
const keyAddress = async (n: number): Promise<Address> =>
  (await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(32).fill(n))).address;

const WALLET = await keyAddress(1);
const OTHER_KEY = await keyAddress(2);
const [VAULT_PDA] = await getProgramDerivedAddress({ programAddress: SYSTEM_PROGRAM, seeds: ['vault'] });
assert.ok(!isOffCurveAddress(WALLET) && isOffCurveAddress(VAULT_PDA), 'fixture addresses');

/** A plain system account, as a wallet's account is. */
const systemAccount = (lamports: bigint): WalletAccount => ({
  owner: SYSTEM_PROGRAM,
  executable: false,
  lamports,
  dataLength: 0,
});

/**
 * `count` signatures, newest first, the oldest `oldestAgeSeconds` before NOW and the others spread
 * evenly after it; the `failed` newest ones failed.
 */
function history(count: number, oldestAgeSeconds: number, failed = 0): SignatureEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    signature: `sig-${i}`,
    slot: BigInt(400_000_000 - i),
    blockTime: NOW - Math.round((oldestAgeSeconds * (i + 1)) / count),
    failed: i < failed,
  }));
}

const move = (
  signature: string,
  blockTime: number | null,
  pre: bigint,
  post: bigint,
  signer: boolean,
): BalanceMove => ({ signature, blockTime, pre, post, signer });

/** The baseline: an established wallet — 5 SOL, 20 successful transactions over 100 days. */
const facts = (over: Partial<WalletFacts> = {}): WalletFacts => ({
  address: WALLET,
  account: systemAccount(5n * SOL),
  history: history(20, 100 * DAY),
  historyError: null,
  moves: [],
  nowSeconds: NOW,
  ...over,
});

/** Funded with `received` at T0, then a move by the wallet itself `seconds` later. */
const T0 = NOW - 3 * DAY;
const fundedThen = (
  received: bigint,
  action: { seconds: number; out: bigint; signer?: boolean },
  balance: bigint,
): WalletFacts =>
  facts({
    account: systemAccount(balance),
    moves: [
      move('fund-sig', T0, 0n, received, false),
      move('act-sig', T0 + action.seconds, received, received - action.out, action.signer ?? true),
    ],
  });

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

const coverage = assessCoverage(WALLET_FLAGS, assessWallet);
const { assess, raised, notRaised } = coverage;

// ---------------------------------------------------------------------------------------------
// Flag by flag
// ---------------------------------------------------------------------------------------------

describe('assessWallet (pure), flag by flag', () => {
  it('the baseline (5 SOL, 20 successful transactions over 100 days) raises nothing: risk 0, proceed', () => {
    const result = assess(facts());
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
    assert.equal(result.confidence, 1);
    assert.match(result.summary, /^Wallet .+: low risk; no risk flags were raised\.$/);
    assert.match(result.recommendation, /^An established wallet/);
    assert.equal(evidenceOf(result).account_kind, 'wallet');
    assert.equal(evidenceOf(result).transactions_read, 20);
    assert.equal(evidenceOf(result).first_seen, iso(NOW - 100 * DAY));
  });

  describe('NOT_A_WALLET: another kind of account', () => {
    const rows: { name: string; over: Partial<WalletFacts>; kind: string; owner: string | null }[] = [
      {
        name: 'an SPL Token account (165 bytes)',
        over: { account: { owner: TOKEN_PROGRAM, executable: false, lamports: 2_039_280n, dataLength: 165 } },
        kind: 'token_account',
        owner: TOKEN_PROGRAM,
      },
      {
        name: 'an SPL Token mint (82 bytes)',
        over: { account: { owner: TOKEN_PROGRAM, executable: false, lamports: 1_461_600n, dataLength: 82 } },
        kind: 'mint',
        owner: TOKEN_PROGRAM,
      },
      {
        name: 'a Token-2022 mint (82 bytes)',
        over: {
          account: { owner: TOKEN_2022_PROGRAM, executable: false, lamports: 1_461_600n, dataLength: 82 },
        },
        kind: 'mint',
        owner: TOKEN_2022_PROGRAM,
      },
      {
        name: 'an executable program',
        over: {
          account: { owner: BPF_UPGRADEABLE_LOADER, executable: true, lamports: 1_141_440n, dataLength: 36 },
        },
        kind: 'program',
        owner: BPF_UPGRADEABLE_LOADER,
      },
      {
        name: 'an account owned by a program (not the system program)',
        over: {
          account: { owner: BPF_UPGRADEABLE_LOADER, executable: false, lamports: SOL, dataLength: 100 },
        },
        kind: 'program_account',
        owner: BPF_UPGRADEABLE_LOADER,
      },
      {
        name: 'a system-owned program-derived address (off the curve: nobody holds its key)',
        over: { address: VAULT_PDA },
        kind: 'pda',
        owner: SYSTEM_PROGRAM,
      },
      {
        name: 'a program-derived address with no account',
        over: { address: VAULT_PDA, account: null, history: [] },
        kind: 'pda',
        owner: null,
      },
    ];
    for (const row of rows) {
      it(`${row.name}: account_kind ${row.kind}, the subject named "Address"`, () => {
        const result = assess(facts(row.over));
        raised(result, 'NOT_A_WALLET', { account_kind: row.kind, owner: row.owner });
        assert.equal(evidenceOf(result).account_kind, row.kind);
        assert.match(result.summary, /^Address /);
        assert.match(result.recommendation, /not a wallet/);
      });
    }

    it('not a system-owned on-curve account with no data (a wallet), nor an on-curve address with no account', () => {
      const wallet = assess(facts());
      notRaised(wallet, 'NOT_A_WALLET');
      assert.match(wallet.summary, /^Wallet /);
      const none = assess(facts({ account: null }));
      notRaised(none, 'NOT_A_WALLET');
      assert.equal(evidenceOf(none).account_kind, 'none');
      // The same system-owned account off the curve is the PDA row above.
      notRaised(assess(facts({ address: OTHER_KEY })), 'NOT_A_WALLET');
    });
  });

  describe('WALLET_UNUSED: no account and no transaction', () => {
    it('an on-curve address with no account and an empty history; confidence −0.3', () => {
      const result = assess(facts({ account: null, history: [] }));
      raised(result, 'WALLET_UNUSED', { address: WALLET, weight_applied: 0.3 });
      assert.deepEqual(result.flags, ['WALLET_UNUSED'], 'no activity flag on top of it');
      assert.equal(result.confidence, 0.7);
      assert.equal(result.risk_score, 0.3);
    });

    it('not with one transaction (a closed account that was used), nor an account with no history, nor an unread history', () => {
      const closed = assess(facts({ account: null, history: history(1, 30 * DAY) }));
      notRaised(closed, 'WALLET_UNUSED');
      raised(closed, 'FEW_TRANSACTIONS', { transactions: 1 });
      const funded = assess(facts({ history: [] }));
      notRaised(funded, 'WALLET_UNUSED');
      raised(funded, 'FEW_TRANSACTIONS', { transactions: 0 });
      notRaised(assess(facts({ account: null, history: null })), 'WALLET_UNUSED');
      notRaised(assess(facts({ address: VAULT_PDA, account: null, history: [] })), 'WALLET_UNUSED');
    });
  });

  describe('FRESH_WALLET: first seen under 7 days ago (full strength under 24 hours)', () => {
    it('one second under 7 days: raised at half strength, first_seen and age_hours exact', () => {
      const age = 7 * DAY - 1;
      raised(assess(facts({ history: history(10, age) })), 'FRESH_WALLET', {
        first_seen: iso(NOW - age),
        age_hours: 168,
        weight_applied: 0.15,
      });
    });

    it('one second under 24 hours: full strength', () => {
      raised(assess(facts({ history: history(10, DAY - 1) })), 'FRESH_WALLET', {
        first_seen: iso(NOW - DAY + 1),
        age_hours: 24,
        weight_applied: 0.3,
      });
    });

    it('exactly 24 hours: half strength; 90 minutes: full, age_hours 1.5', () => {
      raised(assess(facts({ history: history(10, DAY) })), 'FRESH_WALLET', { weight_applied: 0.15 });
      raised(assess(facts({ history: history(10, 90 * MINUTE) })), 'FRESH_WALLET', {
        age_hours: 1.5,
        weight_applied: 0.3,
      });
    });

    it('not exactly 7 days old, nor a minute older', () => {
      notRaised(assess(facts({ history: history(10, 7 * DAY) })), 'FRESH_WALLET');
      notRaised(assess(facts({ history: history(10, 7 * DAY + MINUTE) })), 'FRESH_WALLET');
    });

    it(`not from a full page of ${HISTORY_LIMIT} signatures: the oldest read is only a lower bound`, () => {
      const busy = assess(facts({ history: history(HISTORY_LIMIT, 2 * HOUR) }));
      notRaised(busy, 'FRESH_WALLET');
      raised(busy, 'HISTORY_TRUNCATED');
      raised(assess(facts({ history: history(HISTORY_LIMIT - 1, 2 * HOUR) })), 'FRESH_WALLET');
    });

    it('not when the oldest signature has no block time', () => {
      const undated = history(10, HOUR).map((h, i) => (i === 9 ? { ...h, blockTime: null } : h));
      notRaised(assess(facts({ history: undated })), 'FRESH_WALLET');
    });
  });

  describe('FEW_TRANSACTIONS: fewer than 5 transactions in all', () => {
    it('4 transactions', () => {
      raised(assess(facts({ history: history(4, 100 * DAY) })), 'FEW_TRANSACTIONS', {
        transactions: 4,
        weight_applied: 0.1,
      });
    });

    it('not 5', () => {
      notRaised(assess(facts({ history: history(5, 100 * DAY) })), 'FEW_TRANSACTIONS');
    });
  });

  describe('HIGH_FAILURE_RATE: 30 % or more of at least 5 transactions failed', () => {
    it(`30 of ${HISTORY_LIMIT} (30 %): raised at half strength (full at 60 %)`, () => {
      raised(assess(facts({ history: history(HISTORY_LIMIT, 100 * DAY, 30) })), 'HIGH_FAILURE_RATE', {
        failed: 30,
        total: HISTORY_LIMIT,
        failure_rate: 0.3,
        weight_applied: 0.15,
      });
    });

    it(`not 29 of ${HISTORY_LIMIT} (29 %)`, () => {
      notRaised(assess(facts({ history: history(HISTORY_LIMIT, 100 * DAY, 29) })), 'HIGH_FAILURE_RATE');
    });

    it('3 of 10 (exactly 30 %) raised; 2 of 10 not', () => {
      raised(assess(facts({ history: history(10, 100 * DAY, 3) })), 'HIGH_FAILURE_RATE', {
        failure_rate: 0.3,
      });
      notRaised(assess(facts({ history: history(10, 100 * DAY, 2) })), 'HIGH_FAILURE_RATE');
    });

    it('2 of 5 (the fewest transactions judged) raised; 4 of 4 not: too few to judge', () => {
      raised(assess(facts({ history: history(5, 100 * DAY, 2) })), 'HIGH_FAILURE_RATE', {
        failed: 2,
        total: 5,
        failure_rate: 0.4,
      });
      notRaised(assess(facts({ history: history(4, 100 * DAY, 4) })), 'HIGH_FAILURE_RATE');
    });

    it('strength grows with the rate up to 60 %, then stays full', () => {
      const weight = (failed: number) =>
        raised(assess(facts({ history: history(20, 100 * DAY, failed) })), 'HIGH_FAILURE_RATE')
          .weight_applied;
      assert.equal(weight(9), 0.225);
      assert.equal(weight(12), 0.3);
      assert.equal(weight(20), 0.3);
    });
  });

  describe(`HISTORY_TRUNCATED: a full page of ${HISTORY_LIMIT} signatures was read`, () => {
    it(`${HISTORY_LIMIT} signatures: raised with no weight, confidence −0.1, age and count flags withheld`, () => {
      const result = assess(facts({ history: history(HISTORY_LIMIT, HOUR) }));
      raised(result, 'HISTORY_TRUNCATED', { transactions_read: HISTORY_LIMIT, weight_applied: 0 });
      assert.equal(result.confidence, 0.9);
      assert.equal(result.risk_score, 0);
      assert.deepEqual(result.flags, ['HISTORY_TRUNCATED']);
    });

    it(`not ${HISTORY_LIMIT - 1}`, () => {
      const result = assess(facts({ history: history(HISTORY_LIMIT - 1, 100 * DAY) }));
      notRaised(result, 'HISTORY_TRUNCATED');
      assert.equal(result.confidence, 1);
    });
  });

  describe('HISTORY_UNAVAILABLE: the history could not be read', () => {
    it('the RPC error is the reason; confidence −0.4', () => {
      const result = assess(facts({ history: null, historyError: 'HTTP 503' }));
      raised(result, 'HISTORY_UNAVAILABLE', { reason: 'HTTP 503', weight_applied: 0.1 });
      assert.equal(result.confidence, 0.6);
      assert.equal(evidenceOf(result).transactions_read, null);
      assert.equal(evidenceOf(result).failed_transactions, null);
    });

    it('without an error message the reason is "unknown"', () => {
      raised(assess(facts({ history: null, historyError: null })), 'HISTORY_UNAVAILABLE', {
        reason: 'unknown',
      });
    });

    it('not for an empty history that was read', () => {
      notRaised(assess(facts({ history: [] })), 'HISTORY_UNAVAILABLE');
    });
  });

  describe('QUICK_FIRST_ACTION: the first signed transaction within 60 seconds of funding', () => {
    for (const seconds of [0, 59, 60]) {
      it(`${seconds} s after funding`, () => {
        raised(assess(fundedThen(2n * SOL, { seconds, out: SOL / 10n }, 2n * SOL)), 'QUICK_FIRST_ACTION', {
          funding_signature: 'fund-sig',
          first_action_signature: 'act-sig',
          seconds_after_funding: seconds,
          weight_applied: 0.3,
        });
      });
    }

    it('not 61 s after', () => {
      notRaised(
        assess(fundedThen(2n * SOL, { seconds: 61, out: SOL / 10n }, 2n * SOL)),
        'QUICK_FIRST_ACTION',
      );
    });

    it('not when the move 5 s after funding was not signed by the wallet (it received more)', () => {
      const received = facts({
        moves: [
          move('fund-sig', T0, 0n, SOL, false),
          move('tip-sig', T0 + 5, SOL, 2n * SOL, false),
          move('act-sig', T0 + 61, 2n * SOL, SOL, true),
        ],
      });
      notRaised(assess(received), 'QUICK_FIRST_ACTION');
    });

    it('the first action is timed from the funding, whatever order the moves arrive in', () => {
      const shuffled = facts({
        moves: [move('act-sig', T0 + 30, SOL, SOL / 2n, true), move('fund-sig', T0, 0n, SOL, false)],
      });
      raised(assess(shuffled), 'QUICK_FIRST_ACTION', { seconds_after_funding: 30 });
    });

    it('not when a block time is missing (the delay is unknown)', () => {
      const undated = facts({
        moves: [move('fund-sig', null, 0n, SOL, false), move('act-sig', T0 + 10, SOL, SOL / 2n, true)],
      });
      notRaised(assess(undated), 'QUICK_FIRST_ACTION');
    });
  });

  describe('FUNDED_THEN_DRAINED: 90 % or more of what was received sent out, under 1 % left', () => {
    const received = 10n * SOL;
    const oneHour = HOUR;

    it('exactly 90 % sent out, 0.5 % left', () => {
      const result = assess(fundedThen(received, { seconds: oneHour, out: 9n * SOL }, 50_000_000n));
      raised(result, 'FUNDED_THEN_DRAINED', {
        funding_signature: 'fund-sig',
        drain_signature: 'act-sig',
        drained_lamports: String(9n * SOL),
        balance_lamports: '50000000',
        weight_applied: 0.6,
      });
      notRaised(result, 'QUICK_FIRST_ACTION');
    });

    it('not one lamport under 90 % sent out', () => {
      notRaised(
        assess(fundedThen(received, { seconds: oneHour, out: 9n * SOL - 1n }, 50_000_000n)),
        'FUNDED_THEN_DRAINED',
      );
    });

    it('one lamport under 1 % left: raised', () => {
      raised(
        assess(fundedThen(received, { seconds: oneHour, out: 9_900_000_001n }, 99_999_999n)),
        'FUNDED_THEN_DRAINED',
        { balance_lamports: '99999999' },
      );
    });

    it('not exactly 1 % left (the model says "under 1 %")', () => {
      notRaised(
        assess(fundedThen(received, { seconds: oneHour, out: 9_900_000_000n }, 100_000_000n)),
        'FUNDED_THEN_DRAINED',
      );
    });

    it('not when someone else moved the SOL out (the wallet did not sign)', () => {
      notRaised(
        assess(fundedThen(received, { seconds: oneHour, out: received, signer: false }, 0n)),
        'FUNDED_THEN_DRAINED',
      );
    });

    it('the largest signed outflow after the funding is the drain', () => {
      const twoOut = facts({
        account: systemAccount(0n),
        moves: [
          move('fund-sig', T0, 0n, received, false),
          move('small-sig', T0 + 100, received, 9n * SOL, true),
          move('big-sig', T0 + 200, 9n * SOL, 0n, true),
        ],
      });
      raised(assess(twoOut), 'FUNDED_THEN_DRAINED', {
        drain_signature: 'big-sig',
        drained_lamports: String(9n * SOL),
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Missing data, and the invariants
// ---------------------------------------------------------------------------------------------

describe('assessWallet (pure), missing data lowers confidence, never the score', () => {
  const subjects: { name: string; over: Partial<WalletFacts> }[] = [
    { name: 'an established wallet', over: {} },
    { name: 'an on-curve address with no account', over: { account: null } },
    {
      name: 'a token account',
      over: { account: { owner: TOKEN_PROGRAM, executable: false, lamports: 2_039_280n, dataLength: 165 } },
    },
    { name: 'a program-derived address', over: { address: VAULT_PDA } },
  ];
  for (const { name, over } of subjects) {
    it(`${name}: an unread history against a clean one`, () => {
      const known = assess(facts(over));
      const unknown = assess(facts({ ...over, history: null, historyError: 'timeout' }));
      assert.ok(unknown.confidence < known.confidence, `${unknown.confidence} < ${known.confidence}`);
      assert.ok(unknown.risk_score >= known.risk_score, `${unknown.risk_score} >= ${known.risk_score}`);
      assert.ok(unknown.risk_score > 0, 'unknown is never safe');
    });
  }

  it('a truncated history against one transaction fewer: lower confidence, the same score', () => {
    const whole = assess(facts({ history: history(HISTORY_LIMIT - 1, 100 * DAY) }));
    const truncated = assess(facts({ history: history(HISTORY_LIMIT, 100 * DAY) }));
    assert.ok(truncated.confidence < whole.confidence);
    assert.ok(truncated.risk_score >= whole.risk_score);
  });

  it('property: whatever the account, an unread history scores at least a clean one, at lower confidence', () => {
    const accountArb = fc.option(
      fc.record({
        owner: fc.constantFrom(SYSTEM_PROGRAM, TOKEN_PROGRAM, TOKEN_2022_PROGRAM, BPF_UPGRADEABLE_LOADER),
        executable: fc.boolean(),
        lamports: fc.bigInt({ min: 0n, max: 1_000_000n * SOL }),
        dataLength: fc.integer({ min: 0, max: 400 }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(accountArb, fc.constantFrom(WALLET, VAULT_PDA), (account, address) => {
        const known = assess(facts({ address, account }));
        const unknown = assess(facts({ address, account, history: null, historyError: 'x' }));
        return unknown.confidence < known.confidence && unknown.risk_score >= known.risk_score;
      }),
      { numRuns: 200 },
    );
  });

  it('property: any facts give a bounded score and confidence and a one-sentence summary', () => {
    const entry = fc.record({
      signature: fc.string({ minLength: 1, maxLength: 8 }),
      slot: fc.bigInt({ min: 0n, max: 1n << 40n }),
      blockTime: fc.option(fc.integer({ min: NOW - 400 * DAY, max: NOW }), { nil: null }),
      failed: fc.boolean(),
    });
    const lamports = fc.bigInt({ min: 0n, max: 100n * SOL });
    const moveArb = fc.record({
      signature: fc.string({ minLength: 1, maxLength: 8 }),
      blockTime: fc.option(fc.integer({ min: NOW - 30 * DAY, max: NOW }), { nil: null }),
      signer: fc.boolean(),
      pre: lamports,
      post: lamports,
    });
    fc.assert(
      fc.property(
        fc.option(fc.array(entry, { maxLength: HISTORY_LIMIT + 2 }), { nil: null }),
        fc.array(moveArb, { maxLength: 3 }),
        lamports,
        (list, moves, balance) => {
          const sorted =
            list === null ? null : [...list].sort((a, b) => (b.blockTime ?? 0) - (a.blockTime ?? 0));
          assess(facts({ history: sorted, moves, account: systemAccount(balance) }));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('assessWallet (pure), catalog coverage', () => {
  it('every result above met the invariants (score and confidence in [0, 1], one-sentence summary)', () => {
    coverage.assertEveryResultChecked(50);
  });

  it('every flag in WALLET_FLAGS is raised by a test above, and no other code', () => {
    coverage.assertEveryFlagRaised();
  });
});
