/**
 * Pure: which program made a simulated transfer fail, and why, from the simulation's error and
 * logs. Token program errors are named (codes of spl-token-2022's TokenError, of which SPL
 * Token's are the first 20); other programs' custom codes are given as the runtime prints them.
 */
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../../solana/programs.js';

/** TokenError codes a transfer can meet (spl-token-2022 program/src/error.rs). */
const TOKEN_ERRORS: Readonly<Record<number, string>> = {
  1: 'InsufficientFunds: the source holds less than the amount',
  3: 'MintMismatch',
  4: 'OwnerMismatch',
  17: 'AccountFrozen: the source or destination account is frozen',
  18: 'MintDecimalsMismatch',
  36: 'NoMemo: the destination requires a memo',
  37: 'NonTransferable: the token cannot be transferred',
  42: 'CpiGuardTransferBlocked',
  67: 'MintPaused: the mint is paused',
};

export interface FailureReading {
  /** The innermost program that failed, from the logs; null when the logs do not say. */
  readonly program: string | null;
  /** The error, decoded when the failing program is a token program. */
  readonly error: string;
  /** Index of the failing top-level instruction, when the error names one. */
  readonly instruction: number | null;
}

const FAILED_LINE = /^Program (\w{32,44}) failed: (.*)$/;

function customCode(detail: unknown): number | null {
  if (detail && typeof detail === 'object' && 'Custom' in detail) {
    const code = (detail as { Custom: unknown }).Custom;
    return typeof code === 'number' ? code : Number(code);
  }
  return null;
}

export function readFailure(err: unknown, logs: readonly string[]): FailureReading {
  const failed = logs.map((line) => FAILED_LINE.exec(line)).find((m) => m !== null) ?? null;
  const program = failed?.[1] ?? null;
  const instructionError =
    err && typeof err === 'object' && 'InstructionError' in err
      ? ((err as { InstructionError: [number, unknown] }).InstructionError ?? null)
      : null;
  const index = instructionError ? Number(instructionError[0]) : null;
  const detail = instructionError ? instructionError[1] : err;
  const code = customCode(detail);
  const isToken = program === TOKEN_2022_PROGRAM || program === TOKEN_PROGRAM;
  const error =
    code !== null
      ? isToken && TOKEN_ERRORS[code]
        ? `${TOKEN_ERRORS[code]} (custom program error 0x${code.toString(16)})`
        : `custom program error 0x${code.toString(16)}`
      : (failed?.[2] ?? (typeof detail === 'string' ? detail : jsonWithBigInts(detail)));
  return { program, error, instruction: index };
}

/** Transaction-level errors: the transaction never ran, so they say nothing about the token. */
export function isTransactionLevel(err: unknown): boolean {
  return err !== null && !(typeof err === 'object' && 'InstructionError' in err);
}

/** kit reads every number of a simulation's error as a bigint, which JSON.stringify refuses. */
function jsonWithBigInts(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? Number(v) : v));
}
