/**
 * Facts shared by the SPL Token and Token-2022 decoders: which program owns the account, the
 * fixed sizes that tell mints, token accounts and multisigs apart, and account-state names.
 */
import type { Address } from '@solana/kit';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../programs.js';

export type TokenProgramKind = 'spl-token' | 'token-2022';

export function tokenProgramKind(owner: Address): TokenProgramKind | null {
  if (owner === TOKEN_PROGRAM) return 'spl-token';
  if (owner === TOKEN_2022_PROGRAM) return 'token-2022';
  return null;
}

/** Size of an SPL Token mint, and of the base of a Token-2022 mint. */
export const MINT_BASE_SIZE = 82;
/** Size of an SPL Token account, and of the base of a Token-2022 account. */
export const TOKEN_ACCOUNT_BASE_SIZE = 165;
/** Size of a token multisig; Token-2022 pads extended accounts so they never have this length. */
export const MULTISIG_SIZE = 355;
/** Token-2022 writes the account type here in every extended account (extended mints are zero-padded up to it). */
export const ACCOUNT_TYPE_OFFSET = 165;
export const ACCOUNT_TYPE_MINT = 1;
export const ACCOUNT_TYPE_ACCOUNT = 2;

/** The state byte of a token account (and of Token-2022's DefaultAccountState extension). */
export type TokenAccountState = 'uninitialized' | 'initialized' | 'frozen';

const ACCOUNT_STATES: readonly TokenAccountState[] = ['uninitialized', 'initialized', 'frozen'];

export function tokenAccountState(value: number): TokenAccountState | null {
  return ACCOUNT_STATES[value] ?? null;
}

/** COption tags are u32 0 (None) or 1 (Some); kit's option decoder would read any other value as None. */
export function isCOptionTag(data: Uint8Array, offset: number): boolean {
  const tag = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);
  return tag === 0 || tag === 1;
}
