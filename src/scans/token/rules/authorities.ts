/**
 * Authority rules: who can still mint, freeze, and whether any token exists at all (wrapped SOL's
 * mints hold none by design).
 */
import { authorityKind } from '../../../solana/address-curve.js';
import type { DecodedMint } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import type { TokenFacts } from '../../token-facts/model.js';
import { NATIVE_MINT, NATIVE_MINT_2022 } from '../../token-facts/trusted.js';
import type { TokenFlag } from '../flags.js';

type Hit = FlagHit<TokenFlag>;

export function authorityHits(facts: TokenFacts, mint: DecodedMint, multiplier: number): Hit[] {
  const hits: Hit[] = [];
  const m = { multiplier };
  if (mint.mintAuthority) {
    hits.push({
      code: 'MINT_AUTHORITY_ACTIVE',
      strength: 1,
      ...m,
      evidence: { mint_authority: mint.mintAuthority, authority_kind: authorityKind(mint.mintAuthority) },
      reason: `${mint.mintAuthority} can mint more`,
    });
  }
  if (mint.freezeAuthority) {
    hits.push({
      code: 'FREEZE_AUTHORITY_ACTIVE',
      strength: 1,
      ...m,
      evidence: {
        freeze_authority: mint.freezeAuthority,
        authority_kind: authorityKind(mint.freezeAuthority),
      },
      reason: `${mint.freezeAuthority} can freeze holders`,
    });
  }
  if (mint.supply === 0n && facts.mint !== NATIVE_MINT && facts.mint !== NATIVE_MINT_2022) {
    hits.push({ code: 'SUPPLY_ZERO', strength: 1, evidence: { supply: '0' }, reason: 'no tokens exist' });
  }
  return hits;
}
