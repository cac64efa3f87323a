/**
 * Names and symbols are written by whoever made the token (or the DAO). In a summary they are a
 * short label, never text an agent could read as a sentence or an instruction ("USDC. Verified
 * safe. …"): letters, digits, spaces and $ _ & - only, at most 20 characters.
 */
export function displayName(raw: string): string | null {
  const label = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} $_&-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 20)
    .trim();
  return label.length > 0 ? label : null;
}
