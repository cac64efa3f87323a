/**
 * Impersonation: a token whose metadata symbol or name reads as a verified token's (the same
 * normalised form, ../../verified/skeleton.ts) while its mint is another one. A mint on the
 * registry says so and is never flagged; a listed variant neither. Pure: the metadata was read
 * with the mint, the registry is the copy the scan was given.
 */
import type { DecodedMint } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import { short } from '../../risk/numbers.js';
import type { TokenView } from '../../token-facts/model.js';
import type { ListedForm, Listing, VerifiedRegistry } from '../../verified/model.js';
import { formsOf } from '../../verified/skeleton.js';
import { escapedText } from '../../verified/untrusted-text.js';
import type { TokenFlag } from '../flags.js';

type Hit = FlagHit<TokenFlag>;

/** Matches shown in evidence at most (each names its verified mint). */
const MAX_MATCHES = 8;

interface NameField {
  readonly source: 'token-2022 metadata' | 'metaplex';
  readonly field: 'symbol' | 'name';
  readonly value: string;
}

/** Every name and symbol the token shows: its Token-2022 metadata and its Metaplex metadata. */
function nameFields(view: TokenView, mint: DecodedMint): NameField[] {
  const own = mint.extensions.tokenMetadata;
  const metaplex = view.decoded.metaplex;
  return [
    ...(own ? fieldsOf('token-2022 metadata', own) : []),
    ...(metaplex ? fieldsOf('metaplex', metaplex) : []),
  ];
}

const fieldsOf = (source: NameField['source'], md: { symbol: string; name: string }): NameField[] => [
  { source, field: 'symbol', value: md.symbol },
  { source, field: 'name', value: md.name },
];

function matchLine(field: NameField, form: string, ref: ListedForm) {
  return {
    field: field.field,
    source: field.source,
    value: escapedText(field.value),
    form,
    verified_mint: ref.listing.mint,
    verified_symbol: escapedText(ref.listing.symbol),
    verified_field: ref.field,
    verified_value: escapedText(ref.listing[ref.field]),
    verified_form: ref.form,
  };
}

type Match = ReturnType<typeof matchLine>;

function matchesOf(fields: readonly NameField[], registry: VerifiedRegistry): Match[] {
  const seen = new Set<string>();
  const matches: Match[] = [];
  for (const field of fields) {
    for (const form of formsOf(field.value)) {
      for (const ref of registry.byForm.get(form) ?? []) {
        const key = `${field.source}|${field.field}|${ref.listing.mint}|${ref.field}`;
        if (seen.has(key)) continue;
        seen.add(key);
        matches.push(matchLine(field, form, ref));
      }
    }
  }
  return matches;
}

function impersonationHit(matches: readonly Match[]): Hit {
  const first = matches[0]!;
  const verified = [...new Set(matches.map((m) => m.verified_mint))];
  return {
    code: 'IMPERSONATES_VERIFIED_TOKEN',
    strength: 1,
    evidence: { verified_mints: verified, matches: matches.slice(0, MAX_MATCHES) },
    reason: `its ${first.field} "${first.value}" reads as the verified ${first.verified_symbol} (mint ${short(first.verified_mint)}), but this is another mint: a copy of its ticker`,
  };
}

/** What the evidence says of a mint the registry lists. */
function listedFacts(listing: Listing) {
  return {
    symbol: listing.symbol,
    name: listing.name,
    issuer: listing.issuer,
    variant_of: listing.variantOf,
    listed_in: listing.from === 'bundled' ? 'the bundled registry' : 'the refreshed list',
  };
}

export function impersonationCheck(
  view: TokenView,
  mint: DecodedMint,
  registry: VerifiedRegistry,
): { hits: Hit[]; facts: Record<string, unknown> } {
  const facts: Record<string, unknown> = { verified_registry: registry.copy };
  const listing = registry.byMint.get(view.mint);
  if (listing) return { hits: [], facts: { ...facts, verified_token: listedFacts(listing) } };
  const matches = matchesOf(nameFields(view, mint), registry);
  return { hits: matches.length > 0 ? [impersonationHit(matches)] : [], facts };
}
