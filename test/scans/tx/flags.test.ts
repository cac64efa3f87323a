/**
 * assessTransaction, flag by flag, on real wire transactions built with kit and the
 * @solana-program instruction builders: the condition that raises each flag and the closest
 * one that must not.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, type Instruction, type KeyPairSigner } from '@solana/kit';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  getAdvanceNonceAccountInstruction,
  getAssignInstruction,
  getTransferSolInstruction,
} from '@solana-program/system';
import {
  AuthorityType,
  getApproveInstruction,
  getCloseAccountInstruction,
  getSetAuthorityInstruction,
} from '@solana-program/token';
import { assessTransaction } from '../../../src/scans/tx/assess.js';
import { decodeTransaction } from '../../../src/scans/tx/decode.js';
import type { LandedTx, TxFacts } from '../../../src/scans/tx/facts.js';
import { TX_FLAGS } from '../../../src/scans/tx/flags.js';
import { TOKEN_PROGRAM } from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';
import { signedWire } from '../../helpers/wire-transactions.js';

const SOL = 1_000_000_000n;
const FEE = 5_000n;
const SIGNATURE = '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v';
const RECENT_BLOCKHASHES = 'SysvarRecentB1ockHashes11111111111111111111' as Address;

interface Landing {
  readonly fee?: bigint;
  readonly err?: unknown;
  /** Lamports of each account before and after, by account key; others stay at 1 SOL. */
  readonly balances?: Readonly<Record<string, readonly [bigint, bigint]>>;
  readonly confirmation?: TxFacts['confirmation'];
}

async function landed(
  feePayer: KeyPairSigner,
  instructions: readonly Instruction[],
  landing: Landing = {},
): Promise<TxFacts> {
  const wire = await signedWire(feePayer, instructions);
  const keys = decodeTransaction(wire, { writable: [], readonly: [] }).accountKeys;
  const fee = landing.fee ?? FEE;
  const balance = (key: string, i: number): readonly [bigint, bigint] =>
    landing.balances?.[key] ?? (i === 0 ? [SOL, SOL - fee] : [SOL, SOL]);
  const tx: LandedTx = {
    slot: 300_000_000n,
    blockTime: 1_800_000_000,
    wire,
    err: landing.err ?? null,
    fee,
    preBalances: keys.map((k, i) => balance(k, i)[0]),
    postBalances: keys.map((k, i) => balance(k, i)[1]),
    preTokenBalances: [],
    postTokenBalances: [],
    loadedAddresses: { writable: [], readonly: [] },
    logMessages: [],
    computeUnitsConsumed: 1_000n,
  };
  return { signature: SIGNATURE, tx, confirmation: landing.confirmation ?? 'finalized' };
}

describe('assessTransaction, flag by flag', () => {
  const flags = flagCoverage(TX_FLAGS);
  let owner: KeyPairSigner;
  let stranger: Address;
  let tokenAccount: Address;
  let nonce: Address;
  const transfer = (from: KeyPairSigner, lamports: bigint) =>
    getTransferSolInstruction({ source: from, destination: stranger, amount: lamports });

  before(async () => {
    owner = await generateKeyPairSigner();
    const [a, b, c] = await Promise.all([0, 1, 2].map(async () => (await generateKeyPairSigner()).address));
    [stranger, tokenAccount, nonce] = [a!, b!, c!];
  });

  it('a plain finalized transfer raises nothing', async () => {
    const result = assessTransaction(await landed(owner, [transfer(owner, SOL / 10n)]));
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
  });

  it('TX_NOT_FOUND: the RPC knows no such transaction; not when it landed', async () => {
    const missing = assessTransaction({ signature: SIGNATURE, tx: null, confirmation: null });
    flags.raised(missing, 'TX_NOT_FOUND', { signature: SIGNATURE });
    assert.deepEqual(missing.flags, ['TX_NOT_FOUND']);
    flags.notRaised(assessTransaction(await landed(owner, [transfer(owner, 1n)])), 'TX_NOT_FOUND');
  });

  it('TX_FAILED: custom error 6001 in instruction 1 is decoded; not for a success', async () => {
    const facts = await landed(
      owner,
      [getSetComputeUnitLimitInstruction({ units: 200_000 }), transfer(owner, 1n)],
      {
        err: { InstructionError: [1, { Custom: 6001 }] },
      },
    );
    flags.raised(assessTransaction(facts), 'TX_FAILED', {
      failed_instruction: 1,
      failed_program: '11111111111111111111111111111111',
      custom_code: 6001,
      err: { InstructionError: [1, { Custom: 6001 }] },
    });
    flags.notRaised(assessTransaction(await landed(owner, [transfer(owner, 1n)])), 'TX_FAILED');
  });

  it('TX_NOT_FINALIZED: confirmed only; not when finalized', async () => {
    const confirmed = await landed(owner, [transfer(owner, 1n)], { confirmation: 'confirmed' });
    flags.raised(assessTransaction(confirmed), 'TX_NOT_FINALIZED', { confirmation_status: 'confirmed' });
    flags.notRaised(assessTransaction(await landed(owner, [transfer(owner, 1n)])), 'TX_NOT_FINALIZED');
  });

  it('TX_HIGH_FEE: a fee one lamport over 0.01 SOL, split into base and priority; not at exactly 0.01 SOL', async () => {
    const budget = [
      getSetComputeUnitLimitInstruction({ units: 50_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 200_000_000n }),
      transfer(owner, 1n),
    ];
    const over = SOL / 100n + 1n;
    flags.raised(assessTransaction(await landed(owner, budget, { fee: over })), 'TX_HIGH_FEE', {
      fee_lamports: String(over),
      priority_fee_lamports: String(over - FEE),
      compute_unit_price_micro_lamports: '200000000',
    });
    flags.notRaised(assessTransaction(await landed(owner, budget, { fee: SOL / 100n })), 'TX_HIGH_FEE');
  });

  it("TX_SIGNER_LARGE_SOL_OUTFLOW: over 90 % of the signer's SOL, or over 10 SOL; not exactly 90 % nor exactly 10 SOL", async () => {
    const outflow = async (pre: bigint, out: bigint) =>
      assessTransaction(
        await landed(owner, [transfer(owner, out)], {
          balances: { [owner.address]: [pre, pre - out - FEE] },
        }),
      );
    flags.raised(await outflow(10n * SOL, 9n * SOL + 1n), 'TX_SIGNER_LARGE_SOL_OUTFLOW', {
      signer: owner.address,
      pre_lamports: String(10n * SOL),
      change_excluding_fee: String(-(9n * SOL + 1n)),
    });
    flags.notRaised(await outflow(10n * SOL, 9n * SOL), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    flags.raised(await outflow(1_000n * SOL, 10n * SOL + 1n), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    flags.notRaised(await outflow(1_000n * SOL, 10n * SOL), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    // Two signers emptied in one transaction: one flag, both signers in its evidence.
    const second = await generateKeyPairSigner();
    const pair = assessTransaction(
      await landed(owner, [transfer(owner, 9n * SOL + 1n), transfer(second, SOL)], {
        balances: { [owner.address]: [10n * SOL, SOL - 1n - FEE], [second.address]: [SOL, 0n] },
      }),
    );
    const merged = flags.raised(pair, 'TX_SIGNER_LARGE_SOL_OUTFLOW', { signer: owner.address });
    assert.deepEqual(
      (merged.occurrences as { signer: string }[]).map((o) => o.signer),
      [owner.address, second.address],
    );
  });

  it('TX_TOKEN_APPROVE_THIRD_PARTY: a delegate that did not sign; not a delegate that signed', async () => {
    const approve = (delegate: Address) =>
      getApproveInstruction({ source: tokenAccount, delegate, owner, amount: 1_000_000n });
    flags.raised(
      assessTransaction(await landed(owner, [approve(stranger)])),
      'TX_TOKEN_APPROVE_THIRD_PARTY',
      {
        token_account: tokenAccount,
        delegate: stranger,
        amount: '1000000',
      },
    );
    const twice = assessTransaction(
      await landed(owner, [
        approve(stranger),
        getApproveInstruction({ source: nonce, delegate: stranger, owner, amount: 7n }),
      ]),
    );
    const repeated = flags.raised(twice, 'TX_TOKEN_APPROVE_THIRD_PARTY', { token_account: tokenAccount });
    assert.deepEqual(
      (repeated.occurrences as { token_account: string }[]).map((o) => o.token_account),
      [tokenAccount, nonce],
      'every approval is in the evidence',
    );
    const cosigner = await generateKeyPairSigner();
    const both = [
      approve(cosigner.address),
      getTransferSolInstruction({ source: cosigner, destination: owner.address, amount: 1n }),
    ];
    flags.notRaised(assessTransaction(await landed(owner, both)), 'TX_TOKEN_APPROVE_THIRD_PARTY');
  });

  it('TX_TOKEN_ACCOUNT_OWNER_CHANGED: ownership given to a non-signer; not a close-authority change, nor to a signer', async () => {
    const setAuthority = (authorityType: AuthorityType, newAuthority: Address) =>
      getSetAuthorityInstruction({ owned: tokenAccount, owner, authorityType, newAuthority });
    flags.raised(
      assessTransaction(await landed(owner, [setAuthority(AuthorityType.AccountOwner, stranger)])),
      'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
      { token_account: tokenAccount, new_owner: stranger },
    );
    flags.notRaised(
      assessTransaction(await landed(owner, [setAuthority(AuthorityType.CloseAccount, stranger)])),
      'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
    );
    flags.notRaised(
      assessTransaction(await landed(owner, [setAuthority(AuthorityType.AccountOwner, owner.address)])),
      'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
    );
  });

  it('TX_SYSTEM_ASSIGN: a wallet handed to a program; not a plain transfer', async () => {
    const assign = getAssignInstruction({ account: owner, programAddress: TOKEN_PROGRAM });
    flags.raised(assessTransaction(await landed(owner, [assign])), 'TX_SYSTEM_ASSIGN', {
      account: owner.address,
      program: TOKEN_PROGRAM,
    });
    flags.notRaised(assessTransaction(await landed(owner, [transfer(owner, 1n)])), 'TX_SYSTEM_ASSIGN');
  });

  it('TX_CLOSE_TO_THIRD_PARTY: a token account closed with its rent sent to a non-signer; not to the owner', async () => {
    const close = (destination: Address) =>
      getCloseAccountInstruction({ account: tokenAccount, destination, owner });
    flags.raised(assessTransaction(await landed(owner, [close(stranger)])), 'TX_CLOSE_TO_THIRD_PARTY', {
      token_account: tokenAccount,
      destination: stranger,
    });
    flags.notRaised(
      assessTransaction(await landed(owner, [close(owner.address)])),
      'TX_CLOSE_TO_THIRD_PARTY',
    );
  });

  it('TX_DURABLE_NONCE: AdvanceNonceAccount as the first instruction; not later in the transaction', async () => {
    const advance = getAdvanceNonceAccountInstruction({
      nonceAccount: nonce,
      recentBlockhashesSysvar: RECENT_BLOCKHASHES,
      nonceAuthority: owner,
    });
    flags.raised(assessTransaction(await landed(owner, [advance, transfer(owner, 1n)])), 'TX_DURABLE_NONCE', {
      nonce_account: nonce,
    });
    flags.notRaised(
      assessTransaction(await landed(owner, [transfer(owner, 1n), advance])),
      'TX_DURABLE_NONCE',
    );
  });

  it('handing over assets outranks a failure, which outranks a plain transfer', async () => {
    const plain = assessTransaction(await landed(owner, [transfer(owner, 1n)]));
    const failed = assessTransaction(
      await landed(owner, [transfer(owner, 1n)], { err: { InstructionError: [0, 'InsufficientFunds'] } }),
    );
    const drained = assessTransaction(
      await landed(owner, [
        getApproveInstruction({ source: tokenAccount, delegate: stranger, owner, amount: 1n }),
        getSetAuthorityInstruction({
          owned: tokenAccount,
          owner,
          authorityType: AuthorityType.AccountOwner,
          newAuthority: stranger,
        }),
      ]),
    );
    assert.ok(plain.risk_score < failed.risk_score && failed.risk_score < drained.risk_score);
  });

  it('every transaction flag has a raising test above', () => {
    flags.assertEveryFlagRaised();
  });
});
