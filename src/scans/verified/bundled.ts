/**
 * The verified tokens shipped with the service (data/verified-tokens.json): read once, checked,
 * and the registry every scan uses when no list is configured or none could be read.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { base58Problem } from '../../solana/base58.js';
import type { VerifiedEntry, VerifiedRegistry } from './model.js';
import { buildRegistry } from './registry.js';

/** Resolves from src/ and from the compiled dist/ alike: both sit at the same depth. */
export const BUNDLED_FILE = new URL('../../../data/verified-tokens.json', import.meta.url);
export const BUNDLED_SOURCE = 'data/verified-tokens.json';

const mint = z.string().refine((v) => base58Problem(v, 32) === null, 'a base58 mint address');
const source = z.object({ url: z.url(), says: z.string().min(1) });
/** At least two sources name every mint: one source alone may be wrong, and a wrong mint flags the real token. */
const sources = z.array(source).min(2);
const names = { mint, symbol: z.string().min(1), name: z.string().min(1) };

const BundledFile = z.object({
  format: z.literal('solana-risk-scan/verified-tokens@1'),
  reviewed: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  tokens: z
    .array(
      z.object({
        ...names,
        issuer: z.string().min(1),
        sources,
        variants: z.array(z.object({ ...names, note: z.string().min(1), sources })),
      }),
    )
    .min(1),
});

export type BundledTokens = z.infer<typeof BundledFile>;

/** The data file's contents, checked (a bad file is a bug: it throws). */
export function readBundledFile(): BundledTokens {
  return BundledFile.parse(JSON.parse(readFileSync(BUNDLED_FILE, 'utf8')));
}

let cached: { entries: VerifiedEntry[]; registry: VerifiedRegistry } | undefined;

function load() {
  const file = readBundledFile();
  const entries: VerifiedEntry[] = file.tokens.map((t) => ({
    mint: t.mint,
    symbol: t.symbol,
    name: t.name,
    issuer: t.issuer,
    variants: t.variants.map((v) => ({ mint: v.mint, symbol: v.symbol, name: v.name, note: v.note })),
  }));
  const registry = buildRegistry(entries, [], {
    copy: 'bundled',
    source: BUNDLED_SOURCE,
    as_of: file.reviewed,
    note: 'the verified tokens shipped with the service',
  });
  return { entries, registry };
}

/** The bundled entries, for a refreshed registry to start from. */
export function bundledEntries(): readonly VerifiedEntry[] {
  cached ??= load();
  return cached.entries;
}

/** The registry of the bundled entries alone. */
export function bundledRegistry(): VerifiedRegistry {
  cached ??= load();
  return cached.registry;
}
