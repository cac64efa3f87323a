/**
 * Local checks of a Solana x402 `exact` payment transaction, before any network call:
 * one TransferChecked of exactly the price in USDC to payTo's associated token account,
 * built around one of our facilitators' fee payers, signed by the payer, with a compute
 * budget no larger than a payment needs (the facilitator pays the priority fee it sets).
 * Plainly wrong payments are refused here; the facilitator still verifies (simulation, balances).
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type ReadonlyUint8Array,
  type SignatureBytes,
  verifySignature,
} from '@solana/kit';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import {
  COMPUTE_BUDGET_PROGRAM,
  LIGHTHOUSE_PROGRAM,
  MEMO_PROGRAM,
  MEMO_V1_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../solana/programs.js';

const TRANSFER_CHECKED = 12;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
/** ComputeBudget instructions no x402 client puts in a payment, named for the refusal. */
const OTHER_COMPUTE_BUDGET: Readonly<Record<number, string>> = {
  0: 'RequestUnits',
  1: 'RequestHeapFrame',
  4: 'SetLoadedAccountsDataSizeLimit',
};

/**
 * Highest compute-unit price (micro-lamports per CU) and limit (CUs) a payment may set, unless
 * configured otherwise (PAYMENT_MAX_COMPUTE_UNIT_PRICE / _LIMIT; docs/configuration.md gives the reasons).
 */
export const DEFAULT_MAX_COMPUTE_UNIT_PRICE = 50_000n;
export const DEFAULT_MAX_COMPUTE_UNIT_LIMIT = 200_000;

const ALLOWED_PROGRAMS: ReadonlySet<string> = new Set([
  COMPUTE_BUDGET_PROGRAM,
  TOKEN_PROGRAM,
  TOKEN_2022_PROGRAM,
  MEMO_PROGRAM,
  MEMO_V1_PROGRAM,
  LIGHTHOUSE_PROGRAM,
]);

export interface PaymentExpectation {
  readonly amount: bigint;
  readonly asset: Address;
  /** payTo's associated token account for the asset, per token program. */
  readonly destinations: Readonly<Record<string, Address>>;
  /** Fee payers of our facilitators; a payment must be built around one of them. */
  readonly feePayers: ReadonlySet<string>;
  /** Micro-lamports per CU; DEFAULT_MAX_COMPUTE_UNIT_PRICE when absent. */
  readonly maxComputeUnitPrice?: bigint;
  /** CUs; DEFAULT_MAX_COMPUTE_UNIT_LIMIT when absent. */
  readonly maxComputeUnitLimit?: number;
}

export interface InspectedPayment {
  /** sha256 of the message bytes: the payment's identity, whatever the fee-payer slot holds. */
  readonly key: string;
  readonly feePayer: Address;
  /** Owner of the source account, who pays. */
  readonly payer: Address;
  /** The token account the payment is taken from. */
  readonly source: Address;
  readonly amount: bigint;
  /** Recent blockhash the payment lives by (it cannot land once this expires). */
  readonly blockhash: string;
}

export type Inspection = { ok: true; payment: InspectedPayment } | { ok: false; reason: Refusal };

/** Why a payment transaction is refused. */
type Refusal = Reason<CodeOf<402>>;

const fail = (why: Refusal): Inspection => ({ ok: false, reason: why });

function readTransferChecked(data: ReadonlyUint8Array): { amount: bigint; decimals: number } | null {
  if (data.length !== 10 || data[0] !== TRANSFER_CHECKED) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { amount: view.getBigUint64(1, true), decimals: data[9]! };
}

interface ComputeBudget {
  limit?: number;
  price?: bigint;
}

/**
 * Reads one ComputeBudget instruction into `budget`, or says why the payment is refused. Only
 * the two instructions x402 clients emit are allowed, each once and in its exact encoding.
 */
function readComputeBudget(
  ix: { readonly accountIndices?: readonly number[]; readonly data?: ReadonlyUint8Array },
  budget: ComputeBudget,
): Refusal | null {
  const data = ix.data ?? new Uint8Array();
  const kind = data[0];
  if (kind === undefined) return reason('compute_budget_empty');
  if (kind !== SET_COMPUTE_UNIT_LIMIT && kind !== SET_COMPUTE_UNIT_PRICE) {
    const instruction = OTHER_COMPUTE_BUDGET[kind] ?? `instruction ${kind}`;
    return reason('compute_budget_not_allowed', { instruction });
  }
  const isLimit = kind === SET_COMPUTE_UNIT_LIMIT;
  const instruction = isLimit ? 'SetComputeUnitLimit' : 'SetComputeUnitPrice';
  if (data.length !== (isLimit ? 5 : 9) || (ix.accountIndices?.length ?? 0) > 0)
    return reason('compute_budget_malformed', { instruction });
  // The runtime refuses a transaction that repeats one; say so before the facilitator does.
  if ((isLimit ? budget.limit : budget.price) !== undefined)
    return reason('compute_budget_repeated', { instruction });
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (isLimit) budget.limit = view.getUint32(1, true);
  else budget.price = view.getBigUint64(1, true);
  return null;
}

/** Why the compute budget costs the facilitator more than a payment needs, or null. */
function computeBudgetProblem(budget: ComputeBudget, expect: PaymentExpectation): Refusal | null {
  const maxPrice = expect.maxComputeUnitPrice ?? DEFAULT_MAX_COMPUTE_UNIT_PRICE;
  const maxLimit = expect.maxComputeUnitLimit ?? DEFAULT_MAX_COMPUTE_UNIT_LIMIT;
  if (budget.price !== undefined && budget.price > maxPrice) {
    return reason('compute_price_too_high', { price: `${budget.price}`, max: `${maxPrice}` });
  }
  if (budget.limit !== undefined && budget.limit > maxLimit) {
    return reason('compute_limit_too_high', { limit: budget.limit, max: maxLimit });
  }
  // Without a limit the runtime's default applies, and a priced default is what the cap prevents.
  if (budget.limit === undefined && (budget.price ?? 0n) > 0n) {
    return reason('compute_limit_missing', { max: maxLimit });
  }
  return null;
}

function decode(transaction: string) {
  const bytes = getBase64Encoder().encode(transaction);
  const tx = getTransactionDecoder().decode(bytes);
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  return { tx, message };
}

async function signaturesValid(
  signatures: Readonly<Record<string, SignatureBytes | null>>,
  signers: readonly Address[],
  messageBytes: Uint8Array,
): Promise<Refusal | null> {
  for (const signer of signers) {
    const signature = signatures[signer];
    if (!signature || signature.every((b) => b === 0)) return reason('signature_missing', { signer });
    const key = await getPublicKeyFromAddress(signer);
    if (!(await verifySignature(key, signature, messageBytes)))
      return reason('signature_invalid', { signer });
  }
  return null;
}

/** A payment's key: the SHA-256 of its signed message, the same whoever adds the fee payer's signature. */
export function paymentKey(messageBytes: Uint8Array): string {
  return createHash('sha256').update(messageBytes).digest('hex');
}

/** A message of the versions x402 clients build (legacy or v0; the newer v1 is not used for payments). */
type Message = Exclude<ReturnType<typeof decode>['message'], { readonly version: 1 }>;

/** A TransferChecked as read: its amount and decimals, its four accounts and its token program. */
interface Transfer {
  readonly amount: bigint;
  readonly decimals: number;
  readonly accounts: readonly [Address, Address, Address, Address];
  readonly program: Address;
}

/** The message's own shape: no lookup tables, built around one of our fee payers. */
function messageProblem(message: Message, expect: PaymentExpectation): Refusal | null {
  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) {
    return reason('transaction_lookup_tables');
  }
  const feePayer = message.staticAccounts[0];
  if (feePayer === undefined) return reason('transaction_no_fee_payer');
  if (!expect.feePayers.has(feePayer)) return reason('fee_payer_not_ours', { feePayer });
  return null;
}

/** One token instruction: a TransferChecked with its accounts, or why not. */
function readTransfer(ix: Message['instructions'][number], accounts: readonly Address[], program: Address) {
  const transfer = readTransferChecked(ix.data ?? new Uint8Array());
  if (transfer === null) return reason('token_instruction_not_transfer');
  const ixAccounts = (ix.accountIndices ?? []).map((i: number) => accounts[i]);
  if (ixAccounts.length < 4 || ixAccounts.some((a: Address | undefined) => a === undefined))
    return reason('transfer_accounts_missing');
  return { ...transfer, accounts: ixAccounts as unknown as Transfer['accounts'], program };
}

/** Every instruction read: only allowed programs, a compute budget within bounds, the transfers. */
function readInstructions(message: Message): { transfers: Transfer[]; budget: ComputeBudget } | Refusal {
  const accounts = message.staticAccounts;
  const transfers: Transfer[] = [];
  const budget: ComputeBudget = {};
  for (const ix of message.instructions) {
    const program = accounts[ix.programAddressIndex];
    if (program === undefined) return reason('account_missing');
    if (!ALLOWED_PROGRAMS.has(program)) return reason('program_unexpected', { program });
    if (program === COMPUTE_BUDGET_PROGRAM) {
      const problem = readComputeBudget(ix, budget);
      if (problem !== null) return problem;
      continue;
    }
    if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) continue;
    const transfer = readTransfer(ix, accounts, program);
    if ('code' in transfer) return transfer;
    transfers.push(transfer);
  }
  return { transfers, budget };
}

/** The one transfer, held to the price, the asset and payTo's account; paid by anyone but the fee payer. */
function transferProblem(transfers: readonly Transfer[], expect: PaymentExpectation, feePayer: Address) {
  if (transfers.length !== 1) return reason('transfer_count', { count: transfers.length });
  const { amount, program, accounts } = transfers[0]!;
  const [, mint, destination, authority] = accounts;
  if (mint !== expect.asset) return reason('transfer_asset', { mint, asset: expect.asset });
  if (destination !== expect.destinations[program]) return reason('transfer_destination');
  if (amount !== expect.amount)
    return reason('transfer_amount', { amount: `${amount}`, price: `${expect.amount}` });
  if (authority === feePayer) return reason('fee_payer_pays');
  return null;
}

export async function inspectPaymentTransaction(
  transaction: string,
  expect: PaymentExpectation,
): Promise<Inspection> {
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(transaction);
  } catch {
    return fail(reason('transaction_undecodable'));
  }
  const { tx, message } = decoded;
  if (message.version === 1) return fail(reason('transaction_version'));
  const shape = messageProblem(message, expect);
  if (shape !== null) return fail(shape);
  const read = readInstructions(message);
  if ('code' in read) return fail(read);
  const budgetProblem = computeBudgetProblem(read.budget, expect);
  if (budgetProblem !== null) return fail(budgetProblem);
  const feePayer = message.staticAccounts[0]!;
  const problem = transferProblem(read.transfers, expect, feePayer);
  if (problem !== null) return fail(problem);
  const messageBytes = tx.messageBytes as unknown as Uint8Array;
  const signers = message.staticAccounts.slice(1, message.header.numSignerAccounts);
  const unsigned = await signaturesValid(tx.signatures, signers, messageBytes);
  if (unsigned !== null) return fail(unsigned);
  const { amount, accounts } = read.transfers[0]!;
  const [source, , , payer] = accounts;
  const payment = {
    key: paymentKey(messageBytes),
    feePayer,
    payer,
    source,
    amount,
    blockhash: message.lifetimeToken,
  };
  return { ok: true, payment };
}
