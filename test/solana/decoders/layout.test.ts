/**
 * `layoutCodec`: one account layout both decoded and encoded. Fields land at their offsets, the
 * bytes between them are zero, the discriminator leads, and a layout typo (overlap, overrun) is
 * refused when the layout is defined rather than read as a wrong account later.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { address, getAddressCodec, getU8Codec, getU64Codec } from '@solana/kit';
import { layoutCodec, readLayoutField, writeLayoutField } from '../../../src/solana/decoders/layout.js';

const KEY = address('11111111111111111111111111111112');

describe('layoutCodec', () => {
  const layout = layoutCodec(60, [1, 2, 3], { amount: [20, getU64Codec()], key: [28, getAddressCodec()] });

  it('writes each field at its offset, the discriminator first and every other byte zero', () => {
    const bytes = layout.encode({ key: KEY, amount: 0x0102n });
    assert.equal(bytes.length, 60);
    assert.deepEqual([...bytes.subarray(0, 3)], [1, 2, 3]);
    assert.deepEqual([...bytes.subarray(20, 22)], [0x02, 0x01]);
    assert.deepEqual([...bytes.subarray(3, 20)], new Array(17).fill(0));
    assert.equal(bytes[28 + 31], 1);
  });

  it('reads back what it wrote, from an account longer than the layout too', () => {
    const bytes = new Uint8Array(80);
    bytes.set(layout.encode({ key: KEY, amount: 7n }));
    assert.deepEqual(layout.decode(bytes), { amount: 7n, key: KEY });
  });

  it('rewrites one field in place and leaves every other byte, the unnamed ones too, as it was', () => {
    const bytes = new Uint8Array(60).fill(0xaa);
    bytes.set(layout.encode({ key: KEY, amount: 7n }).subarray(0, 3));
    writeLayoutField(layout, 'amount', 0x0102n, bytes);
    assert.deepEqual([...bytes.subarray(20, 28)], [0x02, 0x01, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual([...bytes.subarray(3, 20)], new Array(17).fill(0xaa));
    assert.deepEqual([...bytes.subarray(28)], new Array(32).fill(0xaa));
  });

  it('reads one field, of a layout that starts further into the bytes too', () => {
    const bytes = new Uint8Array(100);
    bytes.set(layout.encode({ key: KEY, amount: 9n }), 40);
    assert.equal(readLayoutField(layout, 'amount', bytes, 40), 9n);
    assert.equal(readLayoutField(layout, 'key', bytes, 40), KEY);
  });

  it('refuses overlapping fields and fields past the size when defined', () => {
    assert.throws(() => layoutCodec(16, null, { a: [0, getU64Codec()], b: [7, getU8Codec()] }), /overlaps/);
    assert.throws(() => layoutCodec(8, null, { a: [1, getU64Codec()] }), /past its 8 bytes/);
    assert.throws(() => layoutCodec(16, [9, 9], { a: [1, getU8Codec()] }), /overlaps/);
  });
});
