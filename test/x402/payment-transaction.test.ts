/**
 * The compute budget of a payment transaction: the facilitator's fee payer pays the priority
 * fee it sets, so only what real x402 clients emit is accepted. Client payments are built by
 * the clients themselves (official @x402/svm v1 and v2, Faremeter) against a sandbox RPC.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPaymentHandler } from '@faremeter/payment-solana/exact';
import { createLocalWallet } from '@faremeter/wallet-solana';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionSigner,
} from '@solana/kit';
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  getRequestHeapFrameInstruction,
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
  getSetLoadedAccountsDataSizeLimitInstruction,
} from '@solana-program/compute-budget';
import { getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { PaymentRequirements } from '@x402/core/types';
import { type Reason, reason } from '../../src/reasons.js';
import { createSandboxChain, type SandboxChain } from '../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import { installUsdcMint, USDC_MINT, usdcAccountOf } from '../../src/sandbox/usdc.js';
import { MEMO_PROGRAM } from '../../src/solana/programs.js';
import { SOLANA_MAINNET_CAIP2 } from '../../src/x402/networks.js';
import {
  DEFAULT_MAX_COMPUTE_UNIT_LIMIT,
  DEFAULT_MAX_COMPUTE_UNIT_PRICE,
  type Inspection,
  inspectPaymentTransaction,
  type PaymentExpectation,
} from '../../src/x402/payment-transaction.js';
import { offlinePaymentTransaction } from '../helpers/offline-payment.js';
import { v1Payment, v2Payment } from '../helpers/payments.js';

const AMOUNT = 20_000n;

let payer: KeyPairSigner;
let payTo: KeyPairSigner;
let feePayer: KeyPairSigner;
let expectation: PaymentExpectation;

async function setUp() {
  [payer, payTo, feePayer] = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner(),
  ]);
  expectation = {
    amount: AMOUNT,
    asset: USDC_MINT,
    destinations: { [TOKEN_PROGRAM_ADDRESS]: await usdcAccountOf(payTo!.address) },
    feePayers: new Set([feePayer!.address]),
  };
}

/** A payment in the official client's shape with the given compute-unit limit and price. */
const priced = (computeUnitLimit: number, computeUnitPrice: bigint) =>
  offlinePaymentTransaction({
    payer,
    payTo: payTo.address,
    feePayer: feePayer.address,
    amount: AMOUNT,
    computeUnitLimit,
    computeUnitPrice,
  });

/** A partially signed payment of `instructions`, built around `around` as its fee payer. */
async function paying(
  instructions: readonly Instruction[],
  around: TransactionSigner = createNoopSigner(feePayer.address),
  version: 0 | 1 = 0,
): Promise<string> {
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(around, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: payTo.address as string as Blockhash, lastValidBlockHeight: 1_000n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

/** The TransferChecked the official client sends, paid by `from`. */
const transferFrom = async (from: KeyPairSigner) =>
  getTransferCheckedInstruction({
    source: await usdcAccountOf(from.address),
    mint: USDC_MINT,
    destination: await usdcAccountOf(payTo.address),
    authority: from,
    amount: AMOUNT,
    decimals: 6,
  });

/** A payment whose ComputeBudget instructions are `budget`, for shapes no client builds. */
async function withBudget(budget: readonly Instruction[]): Promise<string> {
  // The memo nonce the official client appends.
  const memo: Instruction = { programAddress: MEMO_PROGRAM, data: new TextEncoder().encode('a1b2') };
  return paying([...budget, await transferFrom(payer), memo]);
}

const rawBudget = (data: number[], accounts: Instruction['accounts'] = []): Instruction => ({
  programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS,
  accounts,
  data: new Uint8Array(data),
});

/** The compute-unit limit and price a wire transaction sets, as the runtime reads them. */
function budgetOf(transaction: string): { limit?: number; price?: bigint } {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  if (message.version === 1) throw new Error('x402 clients build legacy or v0 messages');
  const budget: { limit?: number; price?: bigint } = {};
  for (const ix of message.instructions) {
    if (message.staticAccounts[ix.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM_ADDRESS) continue;
    const data = ix.data!;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2) budget.limit = view.getUint32(1, true);
    if (data[0] === 3) budget.price = view.getBigUint64(1, true);
  }
  return budget;
}

/** Why the payment was refused: its code and the values its message names. */
function refusal(inspection: Inspection): Reason {
  assert.equal(inspection.ok, false, 'the payment should have been refused');
  return (inspection as { reason: Reason }).reason;
}

async function assertAccepted(transaction: string, expect = expectation) {
  const inspection = await inspectPaymentTransaction(transaction, expect);
  assert.ok(inspection.ok, inspection.ok ? '' : inspection.reason.text);
  return inspection.payment;
}

describe('inspectPaymentTransaction: payments from real x402 clients', () => {
  let chain: SandboxChain;
  let rpc: SandboxRpc;
  before(async () => {
    await setUp();
    chain = await createSandboxChain({ autoAdvance: false });
    installUsdcMint(chain, (await generateKeyPairSigner()).address);
    rpc = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain?.stop();
    await rpc?.close();
  });

  const v2Requirements = (): PaymentRequirements => ({
    scheme: 'exact',
    network: SOLANA_MAINNET_CAIP2,
    amount: String(AMOUNT),
    asset: USDC_MINT,
    payTo: payTo.address,
    maxTimeoutSeconds: 60,
    extra: { feePayer: feePayer.address },
  });

  it("accepts the official @x402/svm v2 client's payment (limit and price at its defaults)", async () => {
    const built = await v2Payment(payer, rpc.url, v2Requirements(), 'https://scan.example/scan/wallet/x');
    const transaction = built.payload.transaction as string;
    assert.deepEqual(budgetOf(transaction), { limit: 20_000, price: 1n });
    const payment = await assertAccepted(transaction);
    assert.equal(payment.source, await usdcAccountOf(payer.address));
    assert.equal(payment.payer, payer.address);
  });

  it("accepts the official @x402/svm v1 client's payment", async () => {
    const requirements = {
      scheme: 'exact',
      network: 'solana',
      maxAmountRequired: String(AMOUNT),
      asset: USDC_MINT,
      payTo: payTo.address,
      resource: 'https://scan.example/scan/wallet/x',
      description: '',
      mimeType: 'application/json',
      maxTimeoutSeconds: 60,
      extra: { feePayer: feePayer.address },
    };
    const built = await v1Payment(payer, rpc.url, requirements, 'solana-mainnet');
    const transaction = built.payload.transaction as string;
    assert.deepEqual(budgetOf(transaction), { limit: 20_000, price: 1n });
    await assertAccepted(transaction);
  });

  it("accepts Faremeter's payment (a larger limit than the official client's)", async () => {
    const wallet = await createLocalWallet('mainnet-beta', payer);
    const handler = createPaymentHandler(wallet, address(USDC_MINT), createSolanaRpc(rpc.url) as never);
    const requirements = {
      ...v2Requirements(),
      extra: { feePayer: feePayer.address, decimals: 6, recentBlockhash: payTo.address },
    };
    const [option] = await handler({} as never, [requirements as never]);
    assert.ok(option, 'Faremeter takes the offer');
    const { payload } = await option.exec();
    const transaction = (payload as { transaction: string }).transaction;
    assert.deepEqual(budgetOf(transaction), { limit: 50_000, price: 1n });
    await assertAccepted(transaction);
  });
});

describe('inspectPaymentTransaction: compute budget caps', () => {
  before(setUp);

  it('refuses the attack: the facilitator-cap price with the largest limit', async () => {
    const refused = refusal(
      await inspectPaymentTransaction(await priced(1_400_000, 5_000_000n), expectation),
    );
    assert.deepEqual(refused, reason('compute_price_too_high', { price: '5000000', max: '50000' }));
    assert.match(refused.text, /lower priority fee/, 'the payer is told what to change');
  });

  it('refuses a compute-unit price above the cap, even with the official limit', async () => {
    const refused = refusal(
      await inspectPaymentTransaction(await priced(20_000, DEFAULT_MAX_COMPUTE_UNIT_PRICE + 1n), expectation),
    );
    assert.equal(refused.code, 'compute_price_too_high');
    assert.equal(
      refused.text,
      `the compute-unit price ${DEFAULT_MAX_COMPUTE_UNIT_PRICE + 1n} micro-lamports is above this service's limit of ${DEFAULT_MAX_COMPUTE_UNIT_PRICE}; build the payment with a lower priority fee`,
    );
  });

  it('refuses a compute-unit limit above the cap, even with the official price', async () => {
    const refused = refusal(
      await inspectPaymentTransaction(await priced(DEFAULT_MAX_COMPUTE_UNIT_LIMIT + 1, 1n), expectation),
    );
    const [limit, max] = [DEFAULT_MAX_COMPUTE_UNIT_LIMIT + 1, DEFAULT_MAX_COMPUTE_UNIT_LIMIT];
    assert.deepEqual(refused, reason('compute_limit_too_high', { limit, max }));
  });

  it('accepts a price and a limit exactly at the caps', async () => {
    await assertAccepted(await priced(DEFAULT_MAX_COMPUTE_UNIT_LIMIT, DEFAULT_MAX_COMPUTE_UNIT_PRICE));
  });

  it('applies the caps of the expectation instead of the defaults', async () => {
    const strict = { ...expectation, maxComputeUnitPrice: 10n, maxComputeUnitLimit: 30_000 };
    await assertAccepted(await priced(30_000, 10n), strict);
    assert.deepEqual(
      refusal(await inspectPaymentTransaction(await priced(30_000, 11n), strict)),
      reason('compute_price_too_high', { price: '11', max: '10' }),
    );
    assert.deepEqual(
      refusal(await inspectPaymentTransaction(await priced(30_001, 10n), strict)),
      reason('compute_limit_too_high', { limit: 30_001, max: 30_000 }),
    );
    const lenient = { ...expectation, maxComputeUnitPrice: 5_000_000n, maxComputeUnitLimit: 1_400_000 };
    await assertAccepted(await priced(1_400_000, 5_000_000n), lenient);
  });

  it('refuses a duplicate SetComputeUnitPrice, even when both are under the cap', async () => {
    const transaction = await withBudget([
      getSetComputeUnitLimitInstruction({ units: 20_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1n }),
      getSetComputeUnitPriceInstruction({ microLamports: 1n }),
    ]);
    assert.deepEqual(
      refusal(await inspectPaymentTransaction(transaction, expectation)),
      reason('compute_budget_repeated', { instruction: 'SetComputeUnitPrice' }),
    );
  });

  it('refuses a duplicate SetComputeUnitLimit', async () => {
    const transaction = await withBudget([
      getSetComputeUnitLimitInstruction({ units: 20_000 }),
      getSetComputeUnitLimitInstruction({ units: 20_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1n }),
    ]);
    assert.deepEqual(
      refusal(await inspectPaymentTransaction(transaction, expectation)),
      reason('compute_budget_repeated', { instruction: 'SetComputeUnitLimit' }),
    );
  });

  it('refuses malformed ComputeBudget instructions', async () => {
    const limit = [2, 0x20, 0x4e, 0, 0];
    const price = [3, 1, 0, 0, 0, 0, 0, 0, 0];
    const malformed = (instruction: string) => reason('compute_budget_malformed', { instruction });
    const cases: [Instruction[], Reason][] = [
      [[rawBudget([])], reason('compute_budget_empty')],
      [[rawBudget(limit.slice(0, 4))], malformed('SetComputeUnitLimit')],
      [[rawBudget([...limit, 0])], malformed('SetComputeUnitLimit')],
      [[rawBudget(limit), rawBudget(price.slice(0, 5))], malformed('SetComputeUnitPrice')],
      [
        [rawBudget(limit), rawBudget(price, [{ address: payer.address, role: AccountRole.READONLY }])],
        malformed('SetComputeUnitPrice'),
      ],
    ];
    // The well-formed bytes pass, so each refusal is the malformation's.
    await assertAccepted(await withBudget([rawBudget(limit), rawBudget(price)]));
    for (const [budget, expected] of cases) {
      assert.deepEqual(
        refusal(await inspectPaymentTransaction(await withBudget(budget), expectation)),
        expected,
      );
    }
  });

  it('refuses ComputeBudget instructions no x402 client sends', async () => {
    const official = [
      getSetComputeUnitLimitInstruction({ units: 20_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1n }),
    ];
    const notAllowed = (instruction: string) => reason('compute_budget_not_allowed', { instruction });
    const cases: [Instruction, Reason][] = [
      [getRequestHeapFrameInstruction({ bytes: 256 * 1024 }), notAllowed('RequestHeapFrame')],
      [
        getSetLoadedAccountsDataSizeLimitInstruction({ accountDataSizeLimit: 64 * 1024 }),
        notAllowed('SetLoadedAccountsDataSizeLimit'),
      ],
      [rawBudget([9, 0, 0, 0, 0]), notAllowed('instruction 9')],
    ];
    for (const [extra, expected] of cases) {
      const transaction = await withBudget([...official, extra]);
      assert.deepEqual(refusal(await inspectPaymentTransaction(transaction, expectation)), expected);
    }
  });

  it("refuses a price without a limit (the runtime's default limit would be paid for)", async () => {
    const transaction = await withBudget([getSetComputeUnitPriceInstruction({ microLamports: 1n })]);
    assert.deepEqual(
      refusal(await inspectPaymentTransaction(transaction, expectation)),
      reason('compute_limit_missing', { max: 200_000 }),
    );
  });

  it('accepts a payment that sets no priority fee', async () => {
    await assertAccepted(await withBudget([]));
    await assertAccepted(await withBudget([getSetComputeUnitLimitInstruction({ units: 20_000 })]));
  });
});

describe('inspectPaymentTransaction: transactions that are not one payment, each named by its code', () => {
  before(setUp);

  /** A compiled v0 message as wire bytes, unsigned, for shapes the message builder refuses to make. */
  function compiled(message: object): string {
    const messageBytes = getCompiledTransactionMessageEncoder().encode({
      version: 0,
      header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 0 },
      staticAccounts: [feePayer.address],
      lifetimeToken: '11111111111111111111111111111111',
      instructions: [],
      ...message,
    } as never);
    const signatures = { [feePayer.address]: null };
    return Buffer.from(getTransactionEncoder().encode({ messageBytes, signatures } as never)).toString(
      'base64',
    );
  }

  const codeOf = async (transaction: string) =>
    refusal(await inspectPaymentTransaction(transaction, expectation)).code;

  it('refuses what does not decode, a message without accounts, lookup tables and missing accounts', async () => {
    assert.equal(await codeOf('AQID'), 'transaction_undecodable');
    const v1 = await paying([await transferFrom(payer)], createNoopSigner(feePayer.address), 1);
    assert.equal(await codeOf(v1), 'transaction_version');
    // No signature, and a v0 message naming no account at all: nobody pays its fee.
    const noAccounts = Buffer.concat([
      Buffer.from([0, 0x80, 0, 0, 0, 0]),
      Buffer.alloc(32),
      Buffer.from([0, 0]),
    ]);
    assert.equal(await codeOf(noAccounts.toString('base64')), 'transaction_no_fee_payer');
    const table = (await generateKeyPairSigner()).address;
    const lookups = [{ lookupTableAddress: table, writableIndexes: [0], readonlyIndexes: [] }];
    assert.equal(await codeOf(compiled({ addressTableLookups: lookups })), 'transaction_lookup_tables');
    assert.equal(await codeOf(compiled({ instructions: [{ programAddressIndex: 5 }] })), 'account_missing');
  });

  it('refuses a program no payment calls, a token instruction other than TransferChecked, and a short one', async () => {
    const stranger = (await generateKeyPairSigner()).address;
    const transfer = await transferFrom(payer);
    const other: Instruction = { programAddress: stranger, data: new Uint8Array([1]) };
    assert.equal(await codeOf(await paying([transfer, other])), 'program_unexpected');
    const plainTransfer: Instruction = { ...transfer, data: new Uint8Array([3, 1, 0, 0, 0, 0, 0, 0, 0]) };
    assert.equal(await codeOf(await paying([plainTransfer])), 'token_instruction_not_transfer');
    const short: Instruction = { ...transfer, accounts: transfer.accounts.slice(0, 2) };
    assert.equal(await codeOf(await paying([short])), 'transfer_accounts_missing');
  });

  it('refuses no transfer, two transfers, and a transfer the fee payer pays', async () => {
    const transfer = await transferFrom(payer);
    assert.equal(
      await codeOf(await paying([getSetComputeUnitLimitInstruction({ units: 20_000 })])),
      'transfer_count',
    );
    assert.equal(await codeOf(await paying([transfer, transfer])), 'transfer_count');
    const sponsor = await generateKeyPairSigner();
    const sponsored = { ...expectation, feePayers: new Set([sponsor.address]) };
    const paidBySponsor = await paying([await transferFrom(sponsor)], sponsor);
    assert.equal(refusal(await inspectPaymentTransaction(paidBySponsor, sponsored)).code, 'fee_payer_pays');
  });
});
