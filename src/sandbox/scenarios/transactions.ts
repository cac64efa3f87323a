/**
 * Transaction subjects (by signature): a plain transfer, an on-chain failure with a custom program error,
 * a high priority fee, a signer sending out most of its SOL, and a drainer shape (Approve to a third party
 * plus SetAuthority handing a token account's owner to it).
 */
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  AuthorityType,
  findAssociatedTokenPda,
  getApproveInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getSetAuthorityInstruction,
  getSyncNativeInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { USDC_MINT, WSOL_MINT } from '../../solana/programs.js';
import { fundUsdc, USDC_DECIMALS, usdcAccountOf } from '../usdc.js';
import { type Submitted, submit, submitFailing } from '../wallets.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { TxExpect } from './manifest.js';
import { USDC_AUTHORITY_LABEL } from './tokens.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const LAMPORTS_PER_SIGNATURE = 5_000n;

interface Sent {
  submitted: Submitted;
  pre: bigint;
  /** SOL the signer sent away (besides the fee). */
  outflow: bigint;
}

async function send(
  context: ScenarioContext,
  signer: KeyPairSigner,
  instructions: Instruction[],
  outflow: bigint,
  options: { fail?: boolean } = {},
): Promise<Sent> {
  const pre = context.chain.getAccount(signer.address)?.lamports() ?? 0n;
  const submitted = options.fail
    ? await submitFailing(context.chain, signer, instructions)
    : await submit(context.chain, signer, instructions);
  return { submitted, pre, outflow };
}

function txExpect(
  signer: KeyPairSigner,
  sent: Sent,
  programs: Address[],
  budget: { price: bigint; limit: bigint | null } = { price: 0n, limit: null },
): TxExpect {
  const priority = budget.limit === null ? 0n : (budget.price * budget.limit + 999_999n) / 1_000_000n;
  const fee = LAMPORTS_PER_SIGNATURE + priority;
  if (fee !== sent.submitted.fee) throw new Error(`fee ${sent.submitted.fee}, expected ${fee}`);
  const moved = sent.submitted.err === null ? sent.outflow : 0n;
  return {
    signer: signer.address,
    slot: sent.submitted.slot.toString(),
    err: sent.submitted.err,
    fee: fee.toString(),
    computeUnitPrice: budget.price.toString(),
    computeUnitLimit: budget.limit === null ? null : budget.limit.toString(),
    priorityFeeLamports: priority.toString(),
    signerPreLamports: sent.pre.toString(),
    signerPostLamports: (sent.pre - fee - moved).toString(),
    programs,
  };
}

const SYSTEM = '11111111111111111111111111111111' as Address;
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111' as Address;

/** A plain transfer. */
async function successfulTransfer(context: ScenarioContext): Promise<BuiltSubject> {
  const payer = await fundedSigner(context, 'tx:success:signer', 10n * LAMPORTS_PER_SOL);
  const recipient = (await context.keys.signer('tx:success:recipient')).address;
  const amount = LAMPORTS_PER_SOL / 2n;
  const success = await send(
    context,
    payer,
    [getTransferSolInstruction({ source: payer, destination: recipient, amount })],
    amount,
  );
  return {
    name: 'tx:success',
    kind: 'tx',
    signature: success.submitted.signature,
    description: 'A successful 0.5 SOL transfer with no priority fee',
    expect: txExpect(payer, success, [SYSTEM]),
  };
}

/** A transfer of 5 USDC from an account holding 1: lands (skipPreflight) and fails with custom error 1. */
async function failedTransfer(context: ScenarioContext): Promise<BuiltSubject> {
  const usdcAuthority = await context.keys.signer(USDC_AUTHORITY_LABEL);
  const debtor = await fundedSigner(context, 'tx:failed:signer', LAMPORTS_PER_SOL);
  const creditor = (await context.keys.signer('tx:failed:recipient')).address;
  await fundUsdc(context.chain, usdcAuthority, [
    { owner: debtor.address, amount: 1_000_000n },
    { owner: creditor, amount: 0n },
  ]);
  const failed = await send(
    context,
    debtor,
    [
      getTransferCheckedInstruction({
        source: await usdcAccountOf(debtor.address),
        mint: USDC_MINT,
        destination: await usdcAccountOf(creditor),
        authority: debtor,
        amount: 5_000_000n,
        decimals: USDC_DECIMALS,
      }),
    ],
    0n,
    { fail: true },
  );
  return {
    name: 'tx:failed-custom-error',
    kind: 'tx',
    signature: failed.submitted.signature,
    description:
      'USDC TransferChecked of 5 from an account holding 1: landed failed, SPL Token custom error 1 (insufficient funds)',
    expect: {
      ...txExpect(debtor, failed, [TOKEN_PROGRAM_ADDRESS]),
      customErrorCode: 1,
    },
  };
}

/**
 * A high priority fee: 400 000 000 micro-lamports per CU on a 50 000 CU limit = 0.02 SOL priority,
 * over the 0.01 SOL the transaction scanner calls high.
 */
async function highPriorityFee(context: ScenarioContext): Promise<BuiltSubject> {
  const hurried = await fundedSigner(context, 'tx:priority:signer', 10n * LAMPORTS_PER_SOL);
  const budget = { price: 400_000_000n, limit: 50_000n };
  const priority = await send(
    context,
    hurried,
    [
      getSetComputeUnitLimitInstruction({ units: Number(budget.limit) }),
      getSetComputeUnitPriceInstruction({ microLamports: budget.price }),
      getTransferSolInstruction({
        source: hurried,
        destination: (await context.keys.signer('tx:priority:recipient')).address,
        amount: 1_000_000n,
      }),
    ],
    1_000_000n,
  );
  return {
    name: 'tx:high-priority-fee',
    kind: 'tx',
    signature: priority.submitted.signature,
    description:
      'A small transfer paying a 0.02 SOL priority fee (SetComputeUnitPrice 400 000 000 µlamports/CU × 50 000 CU)',
    expect: {
      ...txExpect(hurried, priority, [COMPUTE_BUDGET, COMPUTE_BUDGET, SYSTEM], budget),
    },
  };
}

/** The signer sends 97.5 % of its SOL to an address it never used before. */
async function largeOutflow(context: ScenarioContext): Promise<BuiltSubject> {
  const emptied = await fundedSigner(context, 'tx:large-outflow:signer', 20n * LAMPORTS_PER_SOL);
  const outflowAmount = 19_500_000_000n;
  const outflow = await send(
    context,
    emptied,
    [
      getTransferSolInstruction({
        source: emptied,
        destination: (await context.keys.signer('tx:large-outflow:recipient')).address,
        amount: outflowAmount,
      }),
    ],
    outflowAmount,
  );
  return {
    name: 'tx:large-outflow',
    kind: 'tx',
    signature: outflow.submitted.signature,
    description: 'The signer sends 19.5 of its 20 SOL (97.5 %) in one transfer',
    expect: {
      ...txExpect(emptied, outflow, [SYSTEM]),
    },
  };
}

/** The drainer's victim: USDC to approve away, and a wrapped-SOL account holding 3 SOL to hand over. */
async function drainerVictim(
  context: ScenarioContext,
): Promise<{ victim: KeyPairSigner; wsolAccount: Address }> {
  const victim = await fundedSigner(context, 'tx:drainer:victim', 10n * LAMPORTS_PER_SOL);
  const usdcAuthority = await context.keys.signer(USDC_AUTHORITY_LABEL);
  await fundUsdc(context.chain, usdcAuthority, [{ owner: victim.address, amount: 2_500_000_000n }]);
  const [wsolAccount] = await findAssociatedTokenPda({
    owner: victim.address,
    mint: WSOL_MINT,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  await submit(context.chain, victim, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: victim,
      ata: wsolAccount,
      owner: victim.address,
      mint: WSOL_MINT,
    }),
    getTransferSolInstruction({ source: victim, destination: wsolAccount, amount: 3n * LAMPORTS_PER_SOL }),
    getSyncNativeInstruction({ account: wsolAccount }),
  ]);
  return { victim, wsolAccount };
}

/**
 * Drainer: the victim signs an unlimited Approve of its USDC account to the attacker, and hands the
 * attacker ownership of its wrapped-SOL account — all in one transaction.
 */
async function drainer(context: ScenarioContext): Promise<BuiltSubject> {
  const attacker = (await context.keys.signer('tx:drainer:attacker')).address;
  const { victim, wsolAccount } = await drainerVictim(context);
  context.timeline.advance(2);
  const usdcAccount = await usdcAccountOf(victim.address);
  const drained = await send(
    context,
    victim,
    [
      getApproveInstruction({ source: usdcAccount, delegate: attacker, owner: victim, amount: U64_MAX }),
      getSetAuthorityInstruction({
        owned: wsolAccount,
        owner: victim,
        authorityType: AuthorityType.AccountOwner,
        newAuthority: attacker,
      }),
    ],
    0n,
  );
  return {
    name: 'tx:drainer',
    kind: 'tx',
    signature: drained.submitted.signature,
    description:
      'Drainer shape: one transaction approves a third party for all of the signer’s USDC and hands it ownership of the signer’s wSOL account',
    expect: {
      ...txExpect(victim, drained, [TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS]),
      approve: { tokenAccount: usdcAccount, delegate: attacker, amount: U64_MAX.toString() },
      setAuthority: { tokenAccount: wsolAccount, authorityType: 'AccountOwner', newAuthority: attacker },
    },
  };
}

/** The transaction subjects in the order they are sent, two seconds apart. */
const TRANSACTION_SUBJECTS: readonly ((context: ScenarioContext) => Promise<BuiltSubject>)[] = [
  successfulTransfer,
  failedTransfer,
  highPriorityFee,
  largeOutflow,
  drainer,
];

export async function seedTransactions(context: ScenarioContext): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (const [index, build] of TRANSACTION_SUBJECTS.entries()) {
    if (index > 0) context.timeline.advance(2);
    built.push(await build(context));
  }
  return built;
}
