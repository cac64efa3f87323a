/**
 * The registry as the impersonation rule reads it: every listed mint, and every normalised form
 * of a listed symbol or name with the mints it belongs to. Built once per copy of the list, so a
 * scan looks its token's few forms up and compares nothing else.
 */
import type {
  ListedForm,
  Listing,
  RegistryCopy,
  TokenNames,
  VerifiedEntry,
  VerifiedRegistry,
} from './model.js';
import { formsOf } from './skeleton.js';

function listingsOf(entry: VerifiedEntry): Listing[] {
  const token: Listing = { ...names(entry), issuer: entry.issuer, variantOf: null, from: 'bundled' };
  const variants = entry.variants.map(
    (v): Listing => ({ ...names(v), issuer: entry.issuer, variantOf: entry.symbol, from: 'bundled' }),
  );
  return [token, ...variants];
}

const names = ({ mint, symbol, name }: TokenNames): TokenNames => ({ mint, symbol, name });

function index(byForm: Map<string, ListedForm[]>, listing: Listing): void {
  for (const field of ['symbol', 'name'] as const) {
    for (const form of formsOf(listing[field])) {
      const refs = byForm.get(form);
      if (refs === undefined) byForm.set(form, [{ listing, field, form }]);
      else refs.push({ listing, field, form });
    }
  }
}

/**
 * The bundled entries (with their variants), then the names a list adds: a mint listed twice
 * keeps its bundled entry, whose issuer and variants the list does not know.
 */
export function buildRegistry(
  bundled: readonly VerifiedEntry[],
  listed: readonly TokenNames[],
  copy: Omit<RegistryCopy, 'tokens'>,
): VerifiedRegistry {
  const byMint = new Map<string, Listing>();
  const add = (listing: Listing) => {
    if (!byMint.has(listing.mint)) byMint.set(listing.mint, listing);
  };
  for (const entry of bundled) for (const listing of listingsOf(entry)) add(listing);
  for (const token of listed) add({ ...names(token), issuer: null, variantOf: null, from: 'list' });
  const byForm = new Map<string, ListedForm[]>();
  for (const listing of byMint.values()) index(byForm, listing);
  return { copy: { ...copy, tokens: byMint.size }, byMint, byForm };
}

/** The same lists, described as another copy (a refresh failed: the registry stays, its note changes). */
export function describedAs(
  registry: VerifiedRegistry,
  copy: Omit<RegistryCopy, 'tokens'>,
): VerifiedRegistry {
  return { ...registry, copy: { ...copy, tokens: registry.copy.tokens } };
}
