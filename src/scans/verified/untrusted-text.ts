/**
 * Names and symbols are written by whoever made the token: any bytes, invalid UTF-8 (decoded to
 * U+FFFD), control and invisible characters, megabytes of text. Evidence shows them bounded and
 * escaped, so what a reader sees is what the chain holds, and nothing in it can hide or reorder text.
 */

/** Characters of a name or symbol shown in evidence at most. */
export const MAX_SHOWN = 64;

/** Invisible, control, format, private-use or unassigned characters, other spaces, U+FFFD, and `\`. */
const UNSAFE = /[\p{C}\p{Z}\uFFFD\\]/u;

function escapeChar(char: string): string {
  if (char === ' ' || !UNSAFE.test(char)) return char;
  if (char === '\\') return '\\\\';
  const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `\\u{${code}}`;
}

/** `raw` as evidence shows it: escaped, at most MAX_SHOWN characters, the rest counted. */
export function escapedText(raw: string, max = MAX_SHOWN): string {
  // Read no more than a bounded head, whatever the size of the text.
  const chars = [...raw.slice(0, max * 2)].slice(0, max);
  const shown = chars.join('');
  const escaped = chars.map(escapeChar).join('');
  const rest = raw.length - shown.length;
  return rest > 0 ? `${escaped}… (${rest} more UTF-16 units)` : escaped;
}
