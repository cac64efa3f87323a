/**
 * What every decoder returns: the decoded value, or why these bytes are not that kind of account.
 * Decoders never throw on account data — hostile or truncated bytes come from the chain, and a
 * scan must turn them into a flag (NOT_A_MINT, …), not a 500.
 */

import { errorMessage } from '../../errors.js';
export type DecodeFailureReason =
  /** The account is owned by a program that never writes this kind of account. */
  | 'wrong-owner'
  /** The bytes belong to another kind of account (a token account given to the mint decoder, a wrong discriminator). */
  | 'wrong-kind'
  /** Fewer bytes than the smallest layout of this kind. */
  | 'truncated'
  /** The right kind and length, but a field holds a value the program never writes (e.g. an option tag of 2). */
  | 'malformed';

export interface DecodeFailure {
  readonly ok: false;
  readonly reason: DecodeFailureReason;
  readonly detail: string;
}

export type DecodeResult<T> = { readonly ok: true; readonly value: T } | DecodeFailure;

export function decoded<T>(value: T): DecodeResult<T> {
  return { ok: true, value };
}

export function notDecoded(reason: DecodeFailureReason, detail: string): DecodeFailure {
  return { ok: false, reason, detail };
}

/** Runs a kit decoder and turns its exception (short read, bad enum value) into a `malformed` failure. */
export function tryDecode<T>(decode: () => T, what: string): DecodeResult<T> {
  try {
    return decoded(decode());
  } catch (error) {
    const message = errorMessage(error);
    return notDecoded('malformed', `${what}: ${message}`);
  }
}
