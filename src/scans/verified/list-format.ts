/**
 * A published list of verified tokens, as answered: Jupiter's Tokens API v2 (`GET
 * /tokens/v2/tag?query=verified`: an array of `{id, name, symbol, isVerified, tags, …}`), or a
 * token list (`{tokens: [{address, symbol, name}]}`, the @solana/spl-token-registry and Uniswap
 * token-list shape, or a bare array of those). Pure and bounded: whatever arrives, the answer is a
 * list of names or a reason, never an error.
 */
import { z } from 'zod';
import { base58Problem } from '../../solana/base58.js';
import type { TokenNames } from './model.js';

/** Entries a list may hold at most (Jupiter's verified list holds a few thousand). */
export const MAX_LIST_ENTRIES = 100_000;
/** Characters of a listed symbol or name kept. */
const MAX_FIELD = 200;

const Entry = z.object({
  id: z.string().optional(),
  address: z.string().optional(),
  mint: z.string().optional(),
  symbol: z.string(),
  name: z.string(),
  isVerified: z.boolean().nullable().optional(),
});

export type ParsedList =
  | { readonly ok: true; readonly tokens: readonly TokenNames[]; readonly skipped: number }
  | { readonly ok: false; readonly reason: string };

function entriesOf(json: unknown): unknown[] | null {
  if (Array.isArray(json)) return json;
  if (json !== null && typeof json === 'object' && Array.isArray((json as { tokens?: unknown }).tokens)) {
    return (json as { tokens: unknown[] }).tokens;
  }
  return null;
}

function namesOf(item: unknown): TokenNames | 'not-verified' | null {
  const entry = Entry.safeParse(item);
  if (!entry.success) return null;
  if (entry.data.isVerified === false) return 'not-verified';
  const mint = entry.data.id ?? entry.data.address ?? entry.data.mint;
  if (mint === undefined || base58Problem(mint, 32) !== null) return null;
  const symbol = entry.data.symbol.slice(0, MAX_FIELD);
  const name = entry.data.name.slice(0, MAX_FIELD);
  return symbol.trim() === '' && name.trim() === '' ? null : { mint, symbol, name };
}

/** The names a list's parsed JSON holds; a list mostly unreadable is refused whole. */
export function parseList(json: unknown): ParsedList {
  const entries = entriesOf(json);
  if (entries === null)
    return { ok: false, reason: 'not a list of tokens (an array, or an object with tokens)' };
  if (entries.length > MAX_LIST_ENTRIES) {
    return {
      ok: false,
      reason: `${entries.length} entries, more than the ${MAX_LIST_ENTRIES} a list may hold`,
    };
  }
  const tokens: TokenNames[] = [];
  let skipped = 0;
  for (const item of entries) {
    const names = namesOf(item);
    if (names === null) skipped++;
    else if (names !== 'not-verified') tokens.push(names);
  }
  if (tokens.length === 0) return { ok: false, reason: 'no entry with a mint address, a symbol and a name' };
  if (skipped > tokens.length) {
    return {
      ok: false,
      reason: `${skipped} of ${entries.length} entries are unreadable: not this list's shape`,
    };
  }
  return { ok: true, tokens, skipped };
}

/** `text` parsed as JSON, then as a list; malformed JSON is a reason, not an error. */
export function parseListText(text: string): ParsedList {
  try {
    return parseList(JSON.parse(text));
  } catch {
    return { ok: false, reason: 'the answer is not JSON' };
  }
}
