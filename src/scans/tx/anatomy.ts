/**
 * Pure reading of a landed transaction: its fee split, compute budget, failure, what each
 * signer's SOL and each owner's tokens did, and the instructions drainers use. Everything is
 * taken from the decoded message and the recorded meta, never from log text.
 */
import { getAddressDecoder } from '@solana/kit';
import {
  COMPUTE_BUDGET_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../../solana/programs.js';
import type { DecodedInstruction, DecodedTransaction } from './decode.js';
import type { LandedTx } from './facts.js';

export const LAMPORTS_PER_SIGNATURE = 5_000n;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_UNITS = 1_400_000n;

const u32 = (d: Uint8Array, at: number) =>
  new DataView(d.buffer, d.byteOffset, d.byteLength).getUint32(at, true);
const u64 = (d: Uint8Array, at: number) =>
  new DataView(d.buffer, d.byteOffset, d.byteLength).getBigUint64(at, true);
const address = (d: Uint8Array, at: number) => getAddressDecoder().decode(d.subarray(at, at + 32));

export interface ComputeBudget {
  readonly unitLimit: bigint;
  readonly unitPriceMicroLamports: bigint;
  /** ceil(limit × price / 10^6): what the price asked for, before any refund rule. */
  readonly requestedPriorityFee: bigint;
}

export function computeBudget(instructions: readonly DecodedInstruction[]): ComputeBudget {
  let limit: bigint | null = null;
  let price = 0n;
  for (const ix of instructions) {
    if (ix.program !== COMPUTE_BUDGET_PROGRAM) continue;
    if (ix.data[0] === 2 && ix.data.length >= 5) limit = BigInt(u32(ix.data, 1));
    if (ix.data[0] === 3 && ix.data.length >= 9) price = u64(ix.data, 1);
  }
  const others = BigInt(instructions.filter((ix) => ix.program !== COMPUTE_BUDGET_PROGRAM).length);
  const unitLimit =
    limit ??
    (others * DEFAULT_UNITS_PER_INSTRUCTION < MAX_UNITS ? others * DEFAULT_UNITS_PER_INSTRUCTION : MAX_UNITS);
  return {
    unitLimit,
    unitPriceMicroLamports: price,
    requestedPriorityFee: (unitLimit * price + 999_999n) / 1_000_000n,
  };
}

export interface FeeSplit {
  readonly total: bigint;
  readonly base: bigint;
  readonly priority: bigint;
}

export function feeSplit(tx: LandedTx, decoded: DecodedTransaction): FeeSplit {
  const base = LAMPORTS_PER_SIGNATURE * BigInt(decoded.signatureCount);
  return { total: tx.fee, base, priority: tx.fee > base ? tx.fee - base : 0n };
}

export interface Failure {
  readonly err: unknown;
  readonly instruction: number | null;
  readonly program: string | null;
  readonly customCode: number | null;
}

/** kit turns every JSON number into a bigint; an error's indexes and codes are small numbers again. */
function plainNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainNumbers(v)]));
  }
  return value;
}

/** `{ InstructionError: [index, { Custom: n }] }` and the like, as the RPC's JSON writes them. */
export function failureOf(tx: LandedTx, decoded: DecodedTransaction): Failure | null {
  return failureOfError(tx.err, decoded);
}

/** The same reading of an error from any source (a landed transaction's meta, a simulation). */
export function failureOfError(rawErr: unknown, decoded: DecodedTransaction): Failure | null {
  if (rawErr === null || rawErr === undefined) return null;
  const err = plainNumbers(rawErr);
  const detail = (err as { InstructionError?: [unknown, unknown] }).InstructionError;
  if (!Array.isArray(detail)) return { err, instruction: null, program: null, customCode: null };
  const index = Number(detail[0]);
  const custom = (detail[1] as { Custom?: unknown } | null)?.Custom;
  return {
    err,
    instruction: index,
    program: decoded.instructions[index]?.program ?? null,
    customCode: custom === undefined ? null : Number(custom),
  };
}

export interface SignerChange {
  readonly signer: string;
  readonly pre: bigint;
  readonly post: bigint;
  readonly change: bigint;
  /** The change with the fee given back (fee payer only), i.e. what the instructions moved. */
  readonly changeExcludingFee: bigint;
}

export function signerChanges(tx: LandedTx, decoded: DecodedTransaction): SignerChange[] {
  return decoded.signers.map((signer, i) => {
    const pre = tx.preBalances[i] ?? 0n;
    const post = tx.postBalances[i] ?? 0n;
    const change = post - pre;
    return { signer, pre, post, change, changeExcludingFee: i === 0 ? change + tx.fee : change };
  });
}

export interface TokenChange {
  readonly owner: string;
  readonly mint: string;
  readonly change: bigint;
  readonly decimals: number;
}

export function tokenChanges(tx: LandedTx): TokenChange[] {
  const totals = new Map<string, TokenChange>();
  const add = (owner: string | null, mint: string, amount: bigint, decimals: number) => {
    const key = `${owner ?? '?'}|${mint}`;
    const before = totals.get(key);
    totals.set(key, { owner: owner ?? 'unknown', mint, decimals, change: (before?.change ?? 0n) + amount });
  };
  for (const b of tx.preTokenBalances) add(b.owner, b.mint, -b.amount, b.decimals);
  for (const b of tx.postTokenBalances) add(b.owner, b.mint, b.amount, b.decimals);
  return [...totals.values()].filter((c) => c.change !== 0n);
}

/** An instruction shape drainers use, with who benefits. */
export type DrainerShape =
  | { kind: 'approve'; tokenAccount: string; delegate: string; amount: bigint }
  | { kind: 'owner_change'; tokenAccount: string; newOwner: string }
  | { kind: 'system_assign'; account: string; program: string }
  | { kind: 'close_to_third_party'; tokenAccount: string; destination: string }
  | { kind: 'durable_nonce'; nonceAccount: string };

const TOKEN_PROGRAMS: ReadonlySet<string> = new Set([TOKEN_PROGRAM, TOKEN_2022_PROGRAM]);
const ACCOUNT_OWNER = 2;

function tokenShape(ix: DecodedInstruction, signers: ReadonlySet<string>): DrainerShape | null {
  const [tag] = ix.data;
  const a = ix.accounts;
  if (tag === 4 && a.length >= 3 && ix.data.length >= 9 && !signers.has(a[1]!)) {
    return { kind: 'approve', tokenAccount: a[0]!, delegate: a[1]!, amount: u64(ix.data, 1) };
  }
  if (tag === 13 && a.length >= 4 && ix.data.length >= 9 && !signers.has(a[2]!)) {
    return { kind: 'approve', tokenAccount: a[0]!, delegate: a[2]!, amount: u64(ix.data, 1) };
  }
  if (tag === 6 && ix.data[1] === ACCOUNT_OWNER && ix.data[2] === 1 && ix.data.length >= 35) {
    const newOwner = address(ix.data, 3);
    if (!signers.has(newOwner)) return { kind: 'owner_change', tokenAccount: a[0]!, newOwner };
  }
  if (tag === 9 && a.length >= 2 && !signers.has(a[1]!)) {
    return { kind: 'close_to_third_party', tokenAccount: a[0]!, destination: a[1]! };
  }
  return null;
}

function systemShape(ix: DecodedInstruction, index: number): DrainerShape | null {
  if (ix.data.length < 4) return null;
  const tag = u32(ix.data, 0);
  if (tag === 1 && ix.data.length >= 36)
    return { kind: 'system_assign', account: ix.accounts[0]!, program: address(ix.data, 4) };
  // AdvanceNonceAccount must be the first instruction for the nonce to stand in for a blockhash.
  if (tag === 4 && index === 0) return { kind: 'durable_nonce', nonceAccount: ix.accounts[0]! };
  return null;
}

export function drainerShapes(decoded: DecodedTransaction): DrainerShape[] {
  const signers = new Set<string>(decoded.signers);
  return decoded.instructions.flatMap((ix, i) => {
    const shape = TOKEN_PROGRAMS.has(ix.program)
      ? tokenShape(ix, signers)
      : ix.program === SYSTEM_PROGRAM
        ? systemShape(ix, i)
        : null;
    return shape === null ? [] : [shape];
  });
}
