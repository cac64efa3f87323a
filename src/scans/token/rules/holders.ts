/**
 * Holder rules, on the decoded holders (owners known, pools and curves set aside as `named` says):
 * whether they could be read, concentration of the circulating supply, an authority's own
 * holding, frozen holders and a delegated large holding.
 */
import type { Address } from '@solana/kit';
import type { DecodedMint } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import { pct, short } from '../../risk/numbers.js';
import { type Concentration, concentration } from '../../token-facts/holders.js';
import type { Holder, TokenView } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';
import { AUTHORITY_HOLDING_SHARE, TOP1_SHARE, TOP10_SHARE } from '../thresholds.js';

type Hit = FlagHit<TokenFlag>;

/** Linear 0..1 between a warning and a danger threshold (a hair over 0 from the warning on). */
const ramp = (x: number, warn: number, danger: number) =>
  Math.max(0, Math.min(1, (x - warn) / (danger - warn) + (x >= warn ? 0.01 : 0)));

/** Balances known but not who holds them: pools and curves cannot be set aside, frozen or delegated holders are invisible. */
function ownersUnread(view: TokenView): Hit[] {
  if (view.largest === null || view.largest.length === 0 || view.holderAccounts.some((a) => a !== null))
    return [];
  return [
    {
      code: 'HOLDERS_UNAVAILABLE',
      strength: 1,
      evidence: { reason: "the largest holders' token accounts could not be read" },
      reason:
        "its largest holders' accounts could not be read: owners, frozen and delegated states are unknown",
    },
  ];
}

function concentrationHits(c: Concentration): Hit[] {
  const hits: Hit[] = [];
  const excluded = c.excluded;
  if (c.top1 && c.top1Share >= TOP1_SHARE.warn) {
    hits.push({
      code: 'HOLDER_TOP1_HIGH',
      strength: ramp(c.top1Share, TOP1_SHARE.warn, TOP1_SHARE.full),
      evidence: { top1_share: c.top1Share, top1_owner: c.top1.owner, excluded },
      reason: `one holder (${c.top1.owner ? short(c.top1.owner) : '?'}) owns ${pct(c.top1Share)} of the circulating supply`,
    });
  }
  if (c.top10Share >= TOP10_SHARE.warn) {
    hits.push({
      code: 'HOLDER_TOP10_HIGH',
      strength: ramp(c.top10Share, TOP10_SHARE.warn, TOP10_SHARE.full),
      evidence: { top10_share: c.top10Share, top10_share_raw: c.top10ShareRaw, excluded },
      reason: `the ten largest holders own ${pct(c.top10Share)} of the circulating supply`,
    });
  }
  return hits;
}

/** One key often holds both powers: count it once, and raise the flag once (for the larger holding). */
function authorityHolding(holders: readonly Holder[], mint: DecodedMint): Hit[] {
  const authorities = [...new Set([mint.mintAuthority, mint.freezeAuthority])].filter(
    (a): a is Address => a !== null,
  );
  const holding = authorities
    .map((authority) => {
      const held = holders.filter((h) => h.owner === authority).reduce((s, h) => s + h.amount, 0n);
      return { authority, share: mint.supply > 0n ? Number((held * 10_000n) / mint.supply) / 10_000 : 0 };
    })
    .sort((a, b) => b.share - a.share)[0];
  if (!holding || holding.share < AUTHORITY_HOLDING_SHARE) return [];
  return [
    {
      code: 'AUTHORITY_HOLDS_SUPPLY',
      strength: 1,
      evidence: { authority: holding.authority, share: holding.share },
      reason: `authority ${short(holding.authority)} holds ${pct(holding.share)} of the supply`,
    },
  ];
}

function frozenOrDelegated(holders: readonly Holder[]): Hit[] {
  const hits: Hit[] = [];
  const frozen = holders.filter((h) => h.frozen && h.amount > 0n);
  if (frozen.length > 0)
    hits.push({
      code: 'FROZEN_HOLDERS',
      strength: 1,
      evidence: { frozen_accounts: frozen.map((h) => h.tokenAccount) },
      reason: `${frozen.length} of the largest holders are frozen`,
    });
  const delegated = holders.find((h) => h.delegate !== null && h.delegatedAmount > 0n);
  if (delegated)
    hits.push({
      code: 'LARGE_HOLDER_DELEGATED',
      strength: 1,
      evidence: {
        token_account: delegated.tokenAccount,
        delegate: delegated.delegate,
        delegated_amount: String(delegated.delegatedAmount),
      },
      reason: `${delegated.delegate} may move ${delegated.delegatedAmount} units of a large holder's tokens`,
    });
  return hits;
}

/** The holder rules' hits and the holders' summary; `named` names holders to set aside. */
export function holderHits(
  view: TokenView,
  mint: DecodedMint,
  named: ReadonlyMap<string, string>,
): { hits: Hit[]; summary: Record<string, unknown> } {
  if (view.largest === null) {
    const reason = view.largestError ?? 'unknown';
    const hit: Hit = {
      code: 'HOLDERS_UNAVAILABLE',
      strength: 1,
      evidence: { reason },
      reason: 'its largest holders could not be read',
    };
    return { hits: [hit], summary: {} };
  }
  const holders = view.decoded.holders;
  const c = concentration(holders, mint.supply, named);
  const hits = [...ownersUnread(view), ...concentrationHits(c), ...authorityHolding(holders, mint)];
  hits.push(...frozenOrDelegated(holders));
  return {
    hits,
    summary: {
      largest_holders_read: holders.length,
      float_supply: String(c.floatSupply),
      top1_share: c.top1Share,
      top10_share: c.top10Share,
      top10_share_raw: c.top10ShareRaw,
      excluded: c.excluded,
    },
  };
}
