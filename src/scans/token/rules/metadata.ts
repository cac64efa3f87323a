/**
 * Metadata rules: the token's name and who can change it, from Token-2022's own metadata
 * extension first, else Metaplex's metadata account; neither is METADATA_MISSING.
 */
import type { DecodedMint } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import type { TokenView } from '../../token-facts/model.js';
import { displayName } from '../display-name.js';
import type { TokenFlag } from '../flags.js';

type Hit = FlagHit<TokenFlag>;

const mutable = (updateAuthority: string, source: string, multiplier: number): Hit => ({
  code: 'METADATA_MUTABLE',
  strength: 1,
  multiplier,
  evidence: { update_authority: updateAuthority, source },
  reason: `${updateAuthority} can rename the token`,
});

export function metadataHits(
  view: TokenView,
  mint: DecodedMint,
  multiplier: number,
): { hits: Hit[]; name: string | null } {
  const own = mint.extensions.tokenMetadata;
  if (own) {
    const hits = own.updateAuthority ? [mutable(own.updateAuthority, 'token-2022 metadata', multiplier)] : [];
    return { hits, name: displayName(own.symbol || own.name) };
  }
  const md = view.decoded.metaplex;
  if (md) {
    const hits = md.isMutable ? [mutable(md.updateAuthority, 'metaplex', multiplier)] : [];
    return { hits, name: displayName(md.symbol || md.name) };
  }
  const missing: Hit = {
    code: 'METADATA_MISSING',
    strength: 1,
    evidence: { metadata_account: view.metadataAddress },
    reason: 'it has no on-chain name or symbol',
  };
  return { hits: [missing], name: null };
}
