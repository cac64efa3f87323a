/**
 * Is an authority a plain keypair or a PDA? A key on the ed25519 curve has a private key, so one
 * person can sign with it; an off-curve address is a PDA, which only its program can sign for
 * (a multisig vault, a DAO, a custom program). Kit's `isOffCurveAddress` does the curve check.
 */
import { type Address, isOffCurveAddress } from '@solana/kit';

export type AuthorityKind = 'keypair' | 'pda';

/** The curve check costs ~0.5 ms of big-integer math, and a scan asks it of the same holders twice. */
const MEMO_SIZE = 10_000;
const offCurve = new Map<Address, boolean>();

function isOff(value: Address): boolean {
  let known = offCurve.get(value);
  if (known === undefined) {
    known = isOffCurveAddress(value);
    if (offCurve.size >= MEMO_SIZE) offCurve.clear();
    offCurve.set(value, known);
  }
  return known;
}

export function isOnCurveAddress(value: Address): boolean {
  return !isOff(value);
}

export function authorityKind(value: Address): AuthorityKind {
  return isOff(value) ? 'pda' : 'keypair';
}
