/**
 * Cheap, exact checks of base58 path parameters. They run on every paid request before the
 * 402, so nothing is decoded and nothing is multiplied. The base58 alphabet is in ASCII order,
 * so digit strings of one length compare as numbers when compared as text; "decodes to exactly
 * n bytes" is then "lies between the base58 texts of 2^(8(n-1)) and 2^(8n)", two string
 * comparisons against bounds worked out once, several times faster than accumulating the value
 * in limbs and than bs58's decoder. The answer is exactly
 * bs58's decoded length; a property test holds the two together.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const ONLY_ALPHABET = /^[1-9A-HJ-NP-Za-km-z]*$/;

/** Longest base58 text that can still decode to `bytes` bytes (⌈bytes·log(256)/log(58)⌉). */
function maxBase58Length(bytes: number): number {
  return Math.ceil((bytes * Math.log(256)) / Math.log(58));
}

/** Base58 digits of a positive number (no leading-zero '1's: the number's own digits). */
function digitsOf(value: bigint): string {
  let text = '';
  for (let v = value; v > 0n; v /= 58n) text = ALPHABET[Number(v % 58n)]! + text;
  return text;
}

/**
 * For a value of n bytes (n ≥ 1), the digits of the least such value, 2^(8(n-1)), and of the
 * least value that is too big, 2^(8n): the value has n bytes exactly when low ≤ it < high.
 */
interface ByteBounds {
  readonly low: string;
  readonly high: string;
}

interface SizeBounds {
  readonly maxLength: number;
  /** byValueBytes[n] for n = 1…bytes. */
  readonly byValueBytes: readonly ByteBounds[];
}

/** Per parameter size, built on first use (the sizes used are 32 and 64). */
const boundsBySize = new Map<number, SizeBounds>();

function boundsFor(bytes: number): SizeBounds {
  let bounds = boundsBySize.get(bytes);
  if (bounds === undefined) {
    const byValueBytes = [{ low: '', high: '' }];
    for (let n = 1; n <= bytes; n++) {
      byValueBytes.push({ low: digitsOf(1n << BigInt(8 * (n - 1))), high: digitsOf(1n << BigInt(8 * n)) });
    }
    bounds = { maxLength: maxBase58Length(bytes), byValueBytes };
    boundsBySize.set(bytes, bounds);
  }
  return bounds;
}

/** a < b as numbers, for digit strings without leading zeros (the alphabet is in ASCII order). */
function less(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

export type Base58Problem = 'empty' | 'alphabet' | 'length';

/** Returns why `text` is not base58 of exactly `bytes` bytes, or null when it is. */
export function base58Problem(text: string, bytes: number): Base58Problem | null {
  if (text.length === 0) return 'empty';
  const bounds = boundsFor(bytes);
  // A character outside the alphabet anywhere is the better reason, so it is looked for first
  // (past the longest possible text only once the answer is already "no").
  if (text.length > bounds.maxLength) return ONLY_ALPHABET.test(text) ? 'length' : 'alphabet';
  if (!ONLY_ALPHABET.test(text)) return 'alphabet';
  // Each leading '1' is one zero byte; the digits after them are a number of `valueBytes` bytes.
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  const valueBytes = bytes - zeros;
  if (valueBytes < 0) return 'length';
  const digits = zeros === 0 ? text : text.slice(zeros);
  if (valueBytes === 0) return digits.length === 0 ? null : 'length';
  const { low, high } = bounds.byValueBytes[valueBytes]!;
  return digits.length > 0 && !less(digits, low) && less(digits, high) ? null : 'length';
}
