/**
 * Names of the custom errors of the programs most transactions fail in, so a caller reads
 * "InsufficientFunds" rather than "custom error 1". From the programs' own error enums
 * (spl-token `TokenError`, solana-system-interface `SystemError`), in declaration order.
 */
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';

const TOKEN_ERRORS = [
  'NotRentExempt',
  'InsufficientFunds',
  'InvalidMint',
  'MintMismatch',
  'OwnerMismatch',
  'FixedSupply',
  'AlreadyInUse',
  'InvalidNumberOfProvidedSigners',
  'InvalidNumberOfRequiredSigners',
  'UninitializedState',
  'NativeNotSupported',
  'NonNativeHasBalance',
  'InvalidInstruction',
  'InvalidState',
  'Overflow',
  'AuthorityTypeNotSupported',
  'MintCannotFreeze',
  'AccountFrozen',
  'MintDecimalsMismatch',
  'NonNativeNotSupported',
];

const SYSTEM_ERRORS = [
  'AccountAlreadyInUse',
  'ResultWithNegativeLamports',
  'InvalidProgramId',
  'InvalidAccountDataLength',
  'MaxSeedLengthExceeded',
  'AddressWithSeedMismatch',
  'NonceNoRecentBlockhashes',
  'NonceBlockhashNotExpired',
  'NonceUnexpectedBlockhashValue',
];

const BY_PROGRAM: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  [TOKEN_PROGRAM, TOKEN_ERRORS],
  [TOKEN_2022_PROGRAM, TOKEN_ERRORS],
  [SYSTEM_PROGRAM, SYSTEM_ERRORS],
]);

/** The error's name, or null for a program or code not listed. */
export function customErrorName(program: string | null, code: number | null): string | null {
  if (program === null || code === null) return null;
  return BY_PROGRAM.get(program)?.[code] ?? null;
}

/** The error's own name: `{ InstructionError: [0, "InvalidAccountData"] }` → "InvalidAccountData". */
export function errorName(err: unknown): string | null {
  if (typeof err === 'string') return err;
  const detail = (err as { InstructionError?: [unknown, unknown] } | null)?.InstructionError;
  if (Array.isArray(detail) && typeof detail[1] === 'string') return detail[1];
  if (err !== null && typeof err === 'object') return Object.keys(err)[0] ?? null;
  return null;
}
