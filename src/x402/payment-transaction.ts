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

export type Inspection = { ok: true; payment: InspectedPayment } | { ok: false; reason: string };

const fail = (reason: string): Inspection => ({ ok: false, reason });

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
): string | null {
  const data = ix.data ?? new Uint8Array();
  const kind = data[0];
  if (kind === undefined) return 'a ComputeBudget instruction has no data';
  if (kind !== SET_COMPUTE_UNIT_LIMIT && kind !== SET_COMPUTE_UNIT_PRICE) {
    const name = OTHER_COMPUTE_BUDGET[kind] ?? `instruction ${kind}`;
    return `ComputeBudget ${name} is not allowed in a payment; only SetComputeUnitLimit and SetComputeUnitPrice are`;
  }
  const isLimit = kind === SET_COMPUTE_UNIT_LIMIT;
  const name = isLimit ? 'SetComputeUnitLimit' : 'SetComputeUnitPrice';
  if (data.length !== (isLimit ? 5 : 9) || (ix.accountIndices?.length ?? 0) > 0)
    return `the ${name} instruction is malformed`;
  // The runtime refuses a transaction that repeats one; say so before the facilitator does.
  if ((isLimit ? budget.limit : budget.price) !== undefined)
    return `the payment transaction has more than one ${name} instruction`;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (isLimit) budget.limit = view.getUint32(1, true);
  else budget.price = view.getBigUint64(1, true);
  return null;
}

/** Why the compute budget costs the facilitator more than a payment needs, or null. */
function computeBudgetProblem(budget: ComputeBudget, expect: PaymentExpectation): string | null {
  const maxPrice = expect.maxComputeUnitPrice ?? DEFAULT_MAX_COMPUTE_UNIT_PRICE;
  const maxLimit = expect.maxComputeUnitLimit ?? DEFAULT_MAX_COMPUTE_UNIT_LIMIT;
  if (budget.price !== undefined && budget.price > maxPrice) {
    return `the compute-unit price ${budget.price} micro-lamports is above this service's limit of ${maxPrice}; build the payment with a lower priority fee`;
  }
  if (budget.limit !== undefined && budget.limit > maxLimit) {
    return `the compute-unit limit ${budget.limit} is above this service's limit of ${maxLimit}; build the payment with a lower compute-unit limit`;
  }
  // Without a limit the runtime's default applies, and a priced default is what the cap prevents.
  if (budget.limit === undefined && (budget.price ?? 0n) > 0n) {
    return `the payment sets a compute-unit price but no compute-unit limit; add a SetComputeUnitLimit of at most ${maxLimit}`;
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
): Promise<string | null> {
  for (const signer of signers) {
    const signature = signatures[signer];
    if (!signature || signature.every((b) => b === 0)) return `the transaction is not signed by ${signer}`;
    const key = await getPublicKeyFromAddress(signer);
    if (!(await verifySignature(key, signature, messageBytes)))
      return `the signature of ${signer} is invalid`;
  }
  return null;
}

/** A payment's key: the SHA-256 of its signed message, the same whoever adds the fee payer's signature. */
export function paymentKey(messageBytes: Uint8Array): string {
  return createHash('sha256').update(messageBytes).digest('hex');
}

export async function inspectPaymentTransaction(
  transaction: string,
  expect: PaymentExpectation,
): Promise<Inspection> {
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(transaction);
  } catch {
    return fail('the payment transaction cannot be decoded');
  }
  const { tx, message } = decoded;
  // x402 clients build legacy or v0 messages; the newer v1 format is not used for payments.
  if (message.version === 1) return fail('payment transactions must be legacy or version 0');
  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) {
    return fail('payment transactions may not use address lookup tables');
  }
  const accounts = message.staticAccounts;
  const feePayer = accounts[0];
  if (feePayer === undefined) return fail('the payment transaction has no fee payer');
  if (!expect.feePayers.has(feePayer))
    return fail(`fee payer ${feePayer} is not one of this service's facilitators`);

  const transfers: { amount: bigint; decimals: number; accounts: Address[]; program: Address }[] = [];
  const budget: ComputeBudget = {};
  for (const ix of message.instructions) {
    const program = accounts[ix.programAddressIndex];
    if (program === undefined) return fail('an instruction names an account the transaction does not have');
    if (!ALLOWED_PROGRAMS.has(program))
      return fail(`the payment transaction calls an unexpected program ${program}`);
    if (program === COMPUTE_BUDGET_PROGRAM) {
      const problem = readComputeBudget(ix, budget);
      if (problem !== null) return fail(problem);
      continue;
    }
    if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) continue;
    const transfer = readTransferChecked(ix.data ?? new Uint8Array());
    if (transfer === null) return fail('the only token instruction allowed is TransferChecked');
    const ixAccounts = (ix.accountIndices ?? []).map((i: number) => accounts[i]);
    if (ixAccounts.length < 4 || ixAccounts.some((a: Address | undefined) => a === undefined))
      return fail('TransferChecked is missing accounts');
    transfers.push({ ...transfer, accounts: ixAccounts as Address[], program });
  }
  const budgetProblem = computeBudgetProblem(budget, expect);
  if (budgetProblem !== null) return fail(budgetProblem);
  if (transfers.length !== 1) return fail(`expected exactly one TransferChecked, found ${transfers.length}`);
  const [source, mint, destination, authority] = transfers[0]!.accounts as [
    Address,
    Address,
    Address,
    Address,
  ];
  const { amount, program } = transfers[0]!;
  if (mint !== expect.asset) return fail(`the transfer is of ${mint}, not the payment asset ${expect.asset}`);
  if (destination !== expect.destinations[program])
    return fail('the transfer does not go to the payTo wallet');
  if (amount !== expect.amount)
    return fail(`the transfer is ${amount} atomic units; the price is ${expect.amount}`);
  if (authority === feePayer) return fail('the facilitator fee payer may not be the one paying');

  const signers = accounts.slice(1, message.header.numSignerAccounts);
  const messageBytes = tx.messageBytes as unknown as Uint8Array;
  const problem = await signaturesValid(tx.signatures, signers, messageBytes);
  if (problem !== null) return fail(problem);
  return {
    ok: true,
    payment: {
      key: paymentKey(messageBytes),
      feePayer,
      payer: authority,
      source,
      amount,
      blockhash: message.lifetimeToken,
    },
  };
}
