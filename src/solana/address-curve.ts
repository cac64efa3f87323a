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

// The curve check on 32 bytes, without base58 either way: the PDA search (program-address.ts)
// hashes a candidate and asks whether it is a point of ed25519 once per bump tried, some seventy
// searches a scan. Kit's own check (isOffCurveAddress, noble's ed25519 vendored) takes an address
// text, so each candidate was encoded to base58 and decoded back first, and it reduces every
// product with a generic `% P`. This is the same algorithm on the bytes, reducing with
// 2^255 ≡ 19 (mod P); test/solana/address-curve.test.ts holds it to kit's on random and edge points.
const P = 2n ** 255n - 19n;
const LOW_255 = 2n ** 255n - 1n;
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
const RM1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752n;

/** a mod P for 0 ≤ a < 2^512 (a product of two reduced values): two folds of 2^255 ≡ 19, one subtraction. */
function reduce(a: bigint): bigint {
  let r = (a & LOW_255) + 19n * (a >> 255n);
  r = (r & LOW_255) + 19n * (r >> 255n);
  return r >= P ? r - P : r;
}

/** a mod P for any a, negative too (kit's `mod`). */
function mod(a: bigint): bigint {
  const r = a % P;
  return r >= 0n ? r : P + r;
}

function pow2(x: bigint, power: number): bigint {
  let r = x;
  for (let i = 0; i < power; i++) r = reduce(r * r);
  return r;
}

/** x^(2^252 − 3) mod P, by kit's (noble's) addition chain. */
function pow_2_252_3(x: bigint): bigint {
  const b2 = reduce(reduce(x * x) * x);
  const b4 = reduce(pow2(b2, 2) * b2);
  const b5 = reduce(pow2(b4, 1) * x);
  const b10 = reduce(pow2(b5, 5) * b5);
  const b20 = reduce(pow2(b10, 10) * b10);
  const b40 = reduce(pow2(b20, 20) * b20);
  const b80 = reduce(pow2(b40, 40) * b40);
  const b160 = reduce(pow2(b80, 80) * b80);
  const b240 = reduce(pow2(b160, 80) * b80);
  const b250 = reduce(pow2(b240, 10) * b10);
  return reduce(pow2(b250, 2) * x);
}

/** √(u/v)'s x, or null when u/v has no square root (kit's uvRatio, but for the parity it does not need). */
function uvRatio(u: bigint, v: bigint): bigint | null {
  const v3 = reduce(reduce(v * v) * v);
  const v7 = reduce(reduce(v3 * v3) * v);
  const x = reduce(reduce(u * v3) * pow_2_252_3(reduce(u * v7)));
  const vx2 = reduce(reduce(v * x) * x);
  if (vx2 === u) return x;
  if (vx2 === mod(-u)) return reduce(x * RM1);
  return null;
}

/** Whether 32 bytes are a compressed ed25519 point: kit's compressedPointBytesAreOnCurve. */
export function bytesAreOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  const le = Buffer.from(bytes);
  le[31] = le[31]! & 0x7f;
  const y = BigInt(`0x${le.reverse().toString('hex')}`);
  const y2 = reduce(y * y);
  const x = uvRatio(mod(y2 - 1n), reduce(D * y2 + 1n));
  if (x === null) return false;
  // x = 0 has no odd twin: a sign bit set on it names no point.
  return !(x === 0n && (bytes[31]! & 0x80) !== 0);
}
