/**
 * Is an authority a plain keypair or a PDA? A key on the ed25519 curve has a private key, so one
 * person can sign with it; an off-curve address is a PDA, which only its program can sign for
 * (a multisig vault, a DAO, a custom program). Kit's `isOffCurveAddress` does the curve check.
 */
import { type Address, isOffCurveAddress } from '@solana/kit';

export type AuthorityKind = 'keypair' | 'pda';

export function isOnCurveAddress(value: Address): boolean {
  return !isOffCurveAddress(value);
}

export function authorityKind(value: Address): AuthorityKind {
  return isOffCurveAddress(value) ? 'pda' : 'keypair';
}
