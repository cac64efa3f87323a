/**
 * assessTransaction (pure) on TxFacts built here: real wire transactions compiled and signed
 * with kit from the @solana-program/* instruction builders (system, token, token-2022, compute
 * budget), landed with a baseline meta (success, one-signature fee, finalized) plus overrides.
 * For every flag in TX_FLAGS, the smallest facts that raise it (every catalog evidence key,
 * value by value) and the closest facts that must not, at the exact boundaries of
 * docs/risk-model.md: a fee over 0.01 SOL, a signer losing over 90 % of its SOL or over 10 SOL,
 * approvals, owner changes and closes only when the beneficiary did not sign, a nonce advance
 * only as the first instruction. Every result produced here is checked against the invariants.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  getAdvanceNonceAccountInstruction,
  getAssignInstruction,
  getCreateAccountInstruction,
  getTransferSolInstruction,
} from '@solana-program/system';
import {
  AuthorityType,
  getApproveCheckedInstruction,
  getApproveInstruction,
  getCloseAccountInstruction,
  getSetAuthorityInstruction,
} from '@solana-program/token';
import { getApproveInstruction as getApprove2022Instruction } from '@solana-program/token-2022';
import type { ScanResult } from '../../../src/contract/schemas.js';
import { assessTransaction } from '../../../src/scans/tx/assess.js';
import { decodeTransaction } from '../../../src/scans/tx/decode.js';
import type { LandedTx, TxFacts } from '../../../src/scans/tx/facts.js';
import { TX_FLAGS, type TxFlag } from '../../../src/scans/tx/flags.js';
import {
  COMPUTE_BUDGET_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../../../src/solana/programs.js';
import { assessCoverage, evidenceOf, type FlagEvidence } from '../../helpers/flag-coverage.js';
import { signedWire } from '../../helpers/wire-transactions.js';

// ---------------------------------------------------------------------------------------------
// Keys and transactions
// ---------------------------------------------------------------------------------------------

const SOL = 1_000_000_000n;
const BASE_FEE = 5_000n;
const HIGH_FEE = SOL / 100n;
const SIGNATURE = '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM95H9Bi5PvYxy3Pp4JfmqFt9GQKDAWXpFb8CCnYoVn9Dcn';
const RECENT_BLOCKHASHES = 'SysvarRecentB1ockHashes11111111111111111111' as Address;

const signer = (n: number) => createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(32).fill(n));
/** The wallet that pays and signs. */
const OWNER = await signer(1);
/** A second signer of some transactions. */
const COSIGNER = await signer(2);
/** A fresh account created in a transaction (it signs its own creation). */
const NEW_ACCOUNT = await signer(3);
/** Addresses that never sign: a third party, the owner's token accounts, a mint, a nonce account. */
const STRANGER = (await signer(4)).address;
const TOKEN_ACCOUNT = (await signer(5)).address;
const TOKEN_ACCOUNT_2 = (await signer(6)).address;
const MINT = (await signer(7)).address;
const NONCE = (await signer(8)).address;

const transfer = (from: KeyPairSigner, amount: bigint, to: Address = STRANGER) =>
  getTransferSolInstruction({ source: from, destination: to, amount });

/** A signed v0 transaction, as base64 wire bytes (OWNER pays unless told). */
const wire = (instructions: readonly Instruction[], feePayer: KeyPairSigner = OWNER) =>
  signedWire(feePayer, instructions);

interface Landing {
  readonly fee?: bigint;
  readonly err?: unknown;
  /** [pre, post] lamports by account; the fee payer defaults to 10 SOL less the fee, others to 1 SOL. */
  readonly balances?: Readonly<Record<string, readonly [bigint, bigint]>>;
  readonly confirmation?: TxFacts['confirmation'];
}

/** The baseline landing: succeeded, one-signature fee, balances untouched but for the fee, finalized. */
async function landed(instructions: readonly Instruction[], landing: Landing = {}): Promise<TxFacts> {
  const bytes = await wire(instructions);
  const keys = decodeTransaction(bytes, { writable: [], readonly: [] }).accountKeys;
  const fee = landing.fee ?? BASE_FEE;
  const balance = (key: string, i: number): readonly [bigint, bigint] =>
    landing.balances?.[key] ?? (i === 0 ? [10n * SOL, 10n * SOL - fee] : [SOL, SOL]);
  const tx: LandedTx = {
    slot: 320_000_000n,
    blockTime: 1_800_000_000,
    wire: bytes,
    err: landing.err ?? null,
    fee,
    preBalances: keys.map((k, i) => balance(k, i)[0]),
    postBalances: keys.map((k, i) => balance(k, i)[1]),
    preTokenBalances: [],
    postTokenBalances: [],
    loadedAddresses: { writable: [], readonly: [] },
    logMessages: [],
    computeUnitsConsumed: 450n,
  };
  return {
    signature: SIGNATURE,
    tx,
    confirmation: landing.confirmation === undefined ? 'finalized' : landing.confirmation,
  };
}

/** The baseline: a finalized 0.1 SOL transfer to a third party. */
const PLAIN = () => landed([transfer(OWNER, SOL / 10n)]);

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

const coverage = assessCoverage(TX_FLAGS, assessTransaction);
const { assess, raised, notRaised } = coverage;

/** One flag and nothing else: the smallest facts raise only what they are about. */
function only(result: ScanResult, code: TxFlag, evidence: Record<string, unknown> = {}): FlagEvidence {
  const found = raised(result, code, evidence);
  assert.deepEqual(result.flags, [code]);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Flag by flag
// ---------------------------------------------------------------------------------------------

describe('assessTransaction (pure), flag by flag', () => {
  it('the baseline (a finalized 0.1 SOL transfer, base fee only) raises nothing: risk 0, proceed', async () => {
    const result = assess(await PLAIN());
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
    assert.equal(result.confidence, 1);
    assert.match(result.summary, /^Transaction .+: low risk; no risk flags were raised\.$/);
    assert.match(result.recommendation, /^The transaction did what it shows/);
    assert.deepEqual(evidenceOf(result).fee, { total: '5000', base: '5000', priority: '0' });
    assert.equal(evidenceOf(result).success, true);
  });

  describe('TX_NOT_FOUND: the RPC knows no such transaction', () => {
    it('no transaction, whatever its status: the only flag; confidence −0.5; never cached as success', () => {
      const result = assess({ signature: SIGNATURE, tx: null, confirmation: null });
      only(result, 'TX_NOT_FOUND', { signature: SIGNATURE, weight_applied: 0.3 });
      assert.equal(result.confidence, 0.5);
      assert.equal(evidenceOf(result).found, false);
      assert.match(result.summary, /^Transaction /);
      assert.match(result.recommendation, /not having happened/);
    });

    it('not once it landed, even unconfirmed', async () => {
      notRaised(assess(await PLAIN()), 'TX_NOT_FOUND');
      notRaised(assess(await landed([transfer(OWNER, 1n)], { confirmation: 'processed' })), 'TX_NOT_FOUND');
    });
  });

  describe('TX_FAILED: the transaction landed but failed', () => {
    const twoInstructions = () => [
      getSetComputeUnitLimitInstruction({ units: 200_000 }),
      transfer(OWNER, SOL / 10n),
    ];

    it('a custom error in instruction 1, as kit returns it (bigints): index, program and code decoded', async () => {
      const result = assess(
        await landed(twoInstructions(), { err: { InstructionError: [1n, { Custom: 6001n }] } }),
      );
      only(result, 'TX_FAILED', {
        err: { InstructionError: [1, { Custom: 6001 }] },
        failed_instruction: 1,
        failed_program: SYSTEM_PROGRAM,
        custom_code: 6001,
        weight_applied: 0.6,
      });
      assert.equal(evidenceOf(result).success, false);
    });

    it('a named instruction error in instruction 0: no custom code', async () => {
      raised(
        assess(await landed(twoInstructions(), { err: { InstructionError: [0, 'InvalidInstructionData'] } })),
        'TX_FAILED',
        { failed_instruction: 0, failed_program: COMPUTE_BUDGET_PROGRAM, custom_code: null },
      );
    });

    it('a transaction-level error: no instruction, program or code', async () => {
      raised(assess(await landed(twoInstructions(), { err: 'AccountInUse' })), 'TX_FAILED', {
        err: 'AccountInUse',
        failed_instruction: null,
        failed_program: null,
        custom_code: null,
      });
    });

    it('not when err is null (success)', async () => {
      notRaised(assess(await landed(twoInstructions(), { err: null })), 'TX_FAILED');
    });
  });

  describe('TX_NOT_FINALIZED: not finalized yet', () => {
    for (const confirmation of ['confirmed', 'processed', null] as const) {
      it(`${confirmation ?? 'no status'}`, async () => {
        only(assess(await landed([transfer(OWNER, SOL / 10n)], { confirmation })), 'TX_NOT_FINALIZED', {
          confirmation_status: confirmation,
          weight_applied: 0.1,
        });
      });
    }

    it('not finalized', async () => {
      notRaised(
        assess(await landed([transfer(OWNER, SOL / 10n)], { confirmation: 'finalized' })),
        'TX_NOT_FINALIZED',
      );
    });
  });

  describe('TX_HIGH_FEE: a fee over 0.01 SOL', () => {
    /** A compute budget whose price asks for exactly `priority` lamports over 100 000 units. */
    const budget = (priority: bigint) => [
      getSetComputeUnitLimitInstruction({ units: 100_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: priority * 10n }),
      transfer(OWNER, SOL / 10n),
    ];
    const withFee = async (priority: bigint, fee = BASE_FEE + priority) =>
      assess(
        await landed(budget(priority), {
          fee,
          balances: { [OWNER.address]: [10n * SOL, 10n * SOL - SOL / 10n - fee] },
        }),
      );

    it('a priority fee one lamport over the line: the fee split into base and priority', async () => {
      const priority = HIGH_FEE - BASE_FEE + 1n;
      only(await withFee(priority), 'TX_HIGH_FEE', {
        fee_lamports: String(HIGH_FEE + 1n),
        priority_fee_lamports: String(priority),
        compute_unit_price_micro_lamports: String(priority * 10n),
        weight_applied: 0.1,
      });
    });

    it('not a priority fee that brings the fee to exactly 0.01 SOL', async () => {
      const result = await withFee(HIGH_FEE - BASE_FEE);
      notRaised(result, 'TX_HIGH_FEE');
      assert.deepEqual(evidenceOf(result).fee, { total: '10000000', base: '5000', priority: '9995000' });
    });

    it('two signatures: the base is 10 000 lamports and the rest is priority', async () => {
      const fee = HIGH_FEE + 1n;
      const facts = await landed(
        [getSetComputeUnitPriceInstruction({ microLamports: 1n }), transfer(COSIGNER, 1n)],
        { fee, balances: { [OWNER.address]: [10n * SOL, 10n * SOL - fee] } },
      );
      raised(assess(facts), 'TX_HIGH_FEE', {
        fee_lamports: String(fee),
        priority_fee_lamports: String(fee - 2n * BASE_FEE),
        compute_unit_price_micro_lamports: '1',
      });
    });
  });

  describe('TX_SIGNER_LARGE_SOL_OUTFLOW: a signer lost over 90 % of its SOL, or over 10 SOL (fee excluded)', () => {
    /** The fee payer holds `pre` and sends `out` (plus the fee). */
    const sending = async (pre: bigint, out: bigint) =>
      assess(
        await landed([transfer(OWNER, out)], {
          balances: { [OWNER.address]: [pre, pre - out - BASE_FEE] },
        }),
      );

    it('one lamport over 90 % of its balance', async () => {
      const out = 9n * SOL + 1n;
      only(await sending(10n * SOL, out), 'TX_SIGNER_LARGE_SOL_OUTFLOW', {
        signer: OWNER.address,
        pre_lamports: String(10n * SOL),
        post_lamports: String(10n * SOL - out - BASE_FEE),
        change_excluding_fee: String(-out),
        weight_applied: 0.3,
      });
    });

    it('not exactly 90 %', async () => {
      notRaised(await sending(10n * SOL, 9n * SOL), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    });

    it('one lamport over 10 SOL of a large balance (1 %)', async () => {
      raised(await sending(1_000n * SOL, 10n * SOL + 1n), 'TX_SIGNER_LARGE_SOL_OUTFLOW', {
        change_excluding_fee: String(-(10n * SOL + 1n)),
      });
    });

    it('not exactly 10 SOL', async () => {
      notRaised(await sending(1_000n * SOL, 10n * SOL), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    });

    it('not the fee alone, even when the fee is most of the balance', async () => {
      const facts = await landed([transfer(OWNER, 0n)], {
        balances: { [OWNER.address]: [6_000n, 1_000n] },
      });
      notRaised(assess(facts), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    });

    it('a co-signer that is not the fee payer: its whole change counts', async () => {
      const facts = await landed([transfer(COSIGNER, SOL - 1n)], {
        balances: { [COSIGNER.address]: [SOL, 1n] },
      });
      raised(assess(facts), 'TX_SIGNER_LARGE_SOL_OUTFLOW', {
        signer: COSIGNER.address,
        pre_lamports: String(SOL),
        post_lamports: '1',
        change_excluding_fee: String(-(SOL - 1n)),
      });
    });

    it('not an account that did not sign, even emptied', async () => {
      const facts = await landed([transfer(OWNER, SOL / 10n)], {
        balances: { [STRANGER]: [50n * SOL, 0n] },
      });
      notRaised(assess(facts), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    });
  });

  describe('TX_TOKEN_APPROVE_THIRD_PARTY: spending approved for an address that did not sign', () => {
    const approve = (delegate: Address) =>
      getApproveInstruction({ source: TOKEN_ACCOUNT, delegate, owner: OWNER, amount: 1_000_000n });
    const approveChecked = (delegate: Address) =>
      getApproveCheckedInstruction({
        source: TOKEN_ACCOUNT,
        mint: MINT,
        delegate,
        owner: OWNER,
        amount: 42n,
        decimals: 6,
      });

    it('Approve to a third party', async () => {
      only(assess(await landed([approve(STRANGER)])), 'TX_TOKEN_APPROVE_THIRD_PARTY', {
        token_account: TOKEN_ACCOUNT,
        delegate: STRANGER,
        amount: '1000000',
        weight_applied: 0.6,
      });
    });

    it('not Approve to the signer itself', async () => {
      notRaised(assess(await landed([approve(OWNER.address)])), 'TX_TOKEN_APPROVE_THIRD_PARTY');
    });

    it('ApproveChecked to a third party (the delegate is its third account)', async () => {
      raised(assess(await landed([approveChecked(STRANGER)])), 'TX_TOKEN_APPROVE_THIRD_PARTY', {
        token_account: TOKEN_ACCOUNT,
        delegate: STRANGER,
        amount: '42',
      });
    });

    it('not ApproveChecked to the signer itself', async () => {
      notRaised(assess(await landed([approveChecked(OWNER.address)])), 'TX_TOKEN_APPROVE_THIRD_PARTY');
    });

    it('Token-2022 Approve to a third party', async () => {
      const ix = getApprove2022Instruction({
        source: TOKEN_ACCOUNT_2,
        delegate: STRANGER,
        owner: OWNER,
        amount: 7n,
      });
      assert.equal(ix.programAddress, TOKEN_2022_PROGRAM);
      raised(assess(await landed([ix])), 'TX_TOKEN_APPROVE_THIRD_PARTY', {
        token_account: TOKEN_ACCOUNT_2,
        delegate: STRANGER,
        amount: '7',
      });
    });

    it('not Approve to a delegate that co-signed the transaction', async () => {
      const facts = await landed([approve(COSIGNER.address), transfer(COSIGNER, 1n, OWNER.address)]);
      notRaised(assess(facts), 'TX_TOKEN_APPROVE_THIRD_PARTY');
    });
  });

  describe('TX_TOKEN_ACCOUNT_OWNER_CHANGED: token account ownership given to an address that did not sign', () => {
    const setAuthority = (authorityType: AuthorityType, newAuthority: Address) =>
      getSetAuthorityInstruction({ owned: TOKEN_ACCOUNT, owner: OWNER, authorityType, newAuthority });

    it('SetAuthority(AccountOwner) to a third party: floored at 0.85', async () => {
      const result = assess(await landed([setAuthority(AuthorityType.AccountOwner, STRANGER)]));
      only(result, 'TX_TOKEN_ACCOUNT_OWNER_CHANGED', {
        token_account: TOKEN_ACCOUNT,
        new_owner: STRANGER,
        weight_applied: 0.9,
      });
      assert.ok(result.risk_score >= 0.85);
    });

    it('not to the signer itself', async () => {
      notRaised(
        assess(await landed([setAuthority(AuthorityType.AccountOwner, OWNER.address)])),
        'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
      );
    });

    it('not another authority (CloseAccount) given to a third party', async () => {
      notRaised(
        assess(await landed([setAuthority(AuthorityType.CloseAccount, STRANGER)])),
        'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
      );
    });
  });

  describe('TX_SYSTEM_ASSIGN: a signer wallet assigned to a program', () => {
    it('Assign of the signer to the token program: floored at 0.85', async () => {
      const result = assess(
        await landed([getAssignInstruction({ account: OWNER, programAddress: TOKEN_PROGRAM })]),
      );
      only(result, 'TX_SYSTEM_ASSIGN', {
        account: OWNER.address,
        program: TOKEN_PROGRAM,
        weight_applied: 0.9,
      });
      assert.ok(result.risk_score >= 0.85);
    });

    it('not a new account created already owned by a program (CreateAccount)', async () => {
      const create = getCreateAccountInstruction({
        payer: OWNER,
        newAccount: NEW_ACCOUNT,
        lamports: 2_039_280n,
        space: 165n,
        programAddress: TOKEN_PROGRAM,
      });
      notRaised(assess(await landed([create])), 'TX_SYSTEM_ASSIGN');
    });
  });

  describe('TX_CLOSE_TO_THIRD_PARTY: a token account closed with its rent sent to an address that did not sign', () => {
    const close = (destination: Address) =>
      getCloseAccountInstruction({ account: TOKEN_ACCOUNT, destination, owner: OWNER });

    it('CloseAccount to a third party', async () => {
      only(assess(await landed([close(STRANGER)])), 'TX_CLOSE_TO_THIRD_PARTY', {
        token_account: TOKEN_ACCOUNT,
        destination: STRANGER,
        weight_applied: 0.3,
      });
    });

    it('not to the owner who signed', async () => {
      notRaised(assess(await landed([close(OWNER.address)])), 'TX_CLOSE_TO_THIRD_PARTY');
    });

    it('two closes to a third party: one flag listing both', async () => {
      const twice = [
        close(STRANGER),
        getCloseAccountInstruction({ account: TOKEN_ACCOUNT_2, destination: STRANGER, owner: OWNER }),
      ];
      const found = raised(assess(await landed(twice)), 'TX_CLOSE_TO_THIRD_PARTY', {
        token_account: TOKEN_ACCOUNT,
      });
      assert.deepEqual(
        (found.occurrences as { token_account: string }[]).map((o) => o.token_account),
        [TOKEN_ACCOUNT, TOKEN_ACCOUNT_2],
      );
    });
  });

  describe('TX_DURABLE_NONCE: AdvanceNonceAccount as the first instruction', () => {
    const advance = () =>
      getAdvanceNonceAccountInstruction({
        nonceAccount: NONCE,
        recentBlockhashesSysvar: RECENT_BLOCKHASHES,
        nonceAuthority: OWNER,
      });

    it('first', async () => {
      only(assess(await landed([advance(), transfer(OWNER, SOL / 10n)])), 'TX_DURABLE_NONCE', {
        nonce_account: NONCE,
        weight_applied: 0.3,
      });
    });

    it('not second, after a compute budget instruction', async () => {
      notRaised(
        assess(await landed([getSetComputeUnitLimitInstruction({ units: 10_000 }), advance()])),
        'TX_DURABLE_NONCE',
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Missing data, and the invariants
// ---------------------------------------------------------------------------------------------

describe('assessTransaction (pure), missing data lowers confidence, never the score', () => {
  it('not found scores above a plain finalized transfer, at lower confidence', async () => {
    const found = assess(await PLAIN());
    const missing = assess({ signature: SIGNATURE, tx: null, confirmation: null });
    assert.ok(missing.confidence < found.confidence);
    assert.ok(missing.risk_score > found.risk_score);
  });

  it('an unknown status scores at least a finalized one', async () => {
    const finalized = assess(await PLAIN());
    const unknown = assess(await landed([transfer(OWNER, SOL / 10n)], { confirmation: null }));
    assert.ok(unknown.risk_score >= finalized.risk_score);
    assert.ok(unknown.risk_score > 0);
  });

  it('handing assets over outranks a failure, which outranks a fee, which outranks a plain transfer', async () => {
    const plain = assess(await PLAIN());
    const fee = assess(await landed([transfer(OWNER, 1n)], { fee: HIGH_FEE + 1n }));
    const failed = assess(
      await landed([transfer(OWNER, 1n)], { err: { InstructionError: [0, { Custom: 1 }] } }),
    );
    const handed = assess(
      await landed([
        getSetAuthorityInstruction({
          owned: TOKEN_ACCOUNT,
          owner: OWNER,
          authorityType: AuthorityType.AccountOwner,
          newAuthority: STRANGER,
        }),
      ]),
    );
    assert.ok(plain.risk_score < fee.risk_score);
    assert.ok(fee.risk_score < failed.risk_score);
    assert.ok(failed.risk_score < handed.risk_score);
  });
});

describe('assessTransaction (pure), catalog coverage', () => {
  it('every result above met the invariants (score and confidence in [0, 1], one-sentence summary)', () => {
    coverage.assertEveryResultChecked(30);
  });

  it('every flag in TX_FLAGS is raised by a test above, and no other code', () => {
    coverage.assertEveryFlagRaised();
  });
});
