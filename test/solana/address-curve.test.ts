/**
 * The curve check on bytes (bytesAreOnCurve, what the PDA search asks of every candidate) gives
 * kit's answer (isOffCurveAddress on the same bytes as an address): on random bytes, on SHA-256
 * digests as the PDA search makes them, on real public keys, and on the edge values of y (0, ±1,
 * P and past it, 2^255 − 1), with the sign bit set and clear.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateKeyPairSigner, getAddressDecoder, getAddressEncoder, isOffCurveAddress } from '@solana/kit';
import fc from 'fast-check';
import { bytesAreOnCurve } from '../../src/solana/address-curve.js';

const decoder = getAddressDecoder();
const kitOnCurve = (bytes: Uint8Array) => !isOffCurveAddress(decoder.decode(bytes));

const P = 2n ** 255n - 19n;

/** y as 32 little-endian bytes, the sign bit set or not. */
function yBytes(y: bigint, signBit: boolean): Uint8Array {
  const bytes = Buffer.from(y.toString(16).padStart(64, '0'), 'hex').reverse();
  if (signBit) bytes[31] = bytes[31]! | 0x80;
  return new Uint8Array(bytes);
}

describe('bytesAreOnCurve', () => {
  it("equals kit's curve check on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        assert.equal(bytesAreOnCurve(bytes), kitOnCurve(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it("equals kit's on SHA-256 digests, about half of them on the curve", () => {
    let on = 0;
    for (let i = 0; i < 400; i++) {
      const digest = new Uint8Array(createHash('sha256').update(`candidate ${i}`).digest());
      const answer = bytesAreOnCurve(digest);
      assert.equal(answer, kitOnCurve(digest), `digest ${i}`);
      if (answer) on += 1;
    }
    assert.ok(on > 120 && on < 280, `${on} of 400 on the curve`);
  });

  it('finds real public keys on the curve', async () => {
    for (let i = 0; i < 5; i++) {
      const { address } = await generateKeyPairSigner();
      assert.equal(bytesAreOnCurve(new Uint8Array(getAddressEncoder().encode(address))), true);
    }
  });

  it("equals kit's at the edges of y, with the sign bit set and clear", () => {
    const edges = [0n, 1n, 2n, P - 2n, P - 1n, P, P + 1n, 2n ** 255n - 1n];
    for (const y of edges) {
      for (const signBit of [false, true]) {
        const bytes = yBytes(y, signBit);
        assert.equal(bytesAreOnCurve(bytes), kitOnCurve(bytes), `y = ${y}, sign bit ${signBit}`);
      }
    }
    // y = 1 is the point x = 0: on the curve, but not with the sign bit set.
    assert.equal(bytesAreOnCurve(yBytes(1n, false)), true);
    assert.equal(bytesAreOnCurve(yBytes(1n, true)), false);
  });

  it('refuses anything but 32 bytes', () => {
    assert.equal(bytesAreOnCurve(new Uint8Array(31)), false);
  });
});
