/** The path-parameter check agrees with a real base58 decoder (bs58) on every input. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bs58 from 'bs58';
import fc from 'fast-check';
import { base58Problem } from '../../src/solana/base58.js';

/** What bs58 says of `text` as `bytes` bytes of base58, in the check's own terms. */
function reference(text: string, bytes: number): string | null {
  if (text.length === 0) return 'empty';
  const decoded = bs58.decodeUnsafe(text);
  if (decoded === undefined) return 'alphabet';
  return decoded.length === bytes ? null : 'length';
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

describe('base58Problem', () => {
  it('agrees with bs58 on encodings of 0–70 bytes, with and without leading zero bytes', () => {
    const leadingZeros = fc.integer({ min: 0, max: 40 });
    const bytes = fc.constantFrom(32, 64);
    fc.assert(
      fc.property(leadingZeros, fc.uint8Array({ maxLength: 70 }), bytes, (zeros, tail, size) => {
        const text = bs58.encode(new Uint8Array([...new Uint8Array(zeros), ...tail]));
        const got = base58Problem(text, size);
        // Too long a text is refused before decoding; bs58 then has nothing to say.
        if (got === 'length' && text.length > (size === 32 ? 44 : 88)) return;
        assert.equal(got, reference(text, size), `${text} as ${size} bytes`);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with bs58 on arbitrary text, and a character outside the alphabet is always the reason', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 90 }),
      fc.string({ minLength: 45, maxLength: 120 }),
      fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{0,88}$/),
      fc.stringMatching(/^1{0,40}[1-9A-HJ-NP-Za-km-z]{0,50}[0OIl+/ é]?[1-9A-HJ-NP-Za-km-z]{0,10}$/),
    );
    fc.assert(
      fc.property(text, fc.constantFrom(32, 64), (value, size) => {
        const got = base58Problem(value, size);
        if (value.length > 0 && !BASE58.test(value)) return assert.equal(got, 'alphabet');
        if (value.length > (size === 32 ? 44 : 88)) return assert.equal(got, 'length');
        assert.equal(got, reference(value, size), JSON.stringify(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('at the edges: the largest and smallest 32-byte values, all-zero keys, one byte too many or too few', () => {
    const max32 = bs58.encode(new Uint8Array(32).fill(255));
    const min32 = bs58.encode(new Uint8Array([1, ...new Uint8Array(31)]));
    assert.equal(max32.length, 44);
    assert.equal(base58Problem(max32, 32), null);
    assert.equal(base58Problem(min32, 32), null);
    assert.equal(base58Problem('11111111111111111111111111111111', 32), null, 'the system program');
    assert.equal(base58Problem('1111111111111111111111111111111', 32), 'length', '31 zero bytes');
    assert.equal(base58Problem('111111111111111111111111111111111', 32), 'length', '33 zero bytes');
    assert.equal(base58Problem(bs58.encode(new Uint8Array(33).fill(1)), 32), 'length');
    assert.equal(base58Problem(bs58.encode(new Uint8Array(31).fill(255)), 32), 'length');
    assert.equal(base58Problem(bs58.encode(new Uint8Array(64).fill(255)), 64), null);
    assert.equal(base58Problem('', 32), 'empty');
    assert.equal(base58Problem('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 32), null, 'USDC');
    assert.equal(base58Problem('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O', 32), 'alphabet');
  });
});
