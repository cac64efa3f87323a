/**
 * Age rules: the mint's age from the oldest signature one page of its history reached, exact only
 * when the page was not full. Under a day a new token is at full strength; up to a week, a third.
 */
import type { FlagHit } from '../../risk/model.js';
import type { TokenFacts } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';
import { NEW_TOKEN_HOURS } from '../thresholds.js';

type Hit = FlagHit<TokenFlag>;

const HOUR = 3600;

function ageUnknown(history: TokenFacts['history']): { hits: Hit[]; summary: Record<string, unknown> } {
  const reason =
    history === null
      ? 'the RPC did not answer getSignaturesForAddress for the mint'
      : history.oldest === null
        ? 'the RPC knows no transaction naming the mint (history pruned or never indexed)'
        : 'the oldest transaction read has no block time';
  return {
    hits: [
      { code: 'TOKEN_AGE_UNAVAILABLE', strength: 1, evidence: { reason }, reason: 'its age is unknown' },
    ],
    summary: { created_at: null, age_hours: null },
  };
}

export function ageOf(facts: TokenFacts): { hits: Hit[]; summary: Record<string, unknown> } {
  const history = facts.history;
  const oldest = history?.oldest ?? null;
  if (history === null || oldest === null || oldest.blockTime === null) return ageUnknown(history);
  const ageHours = Math.max(0, (facts.nowSeconds - oldest.blockTime) / HOUR);
  const rounded = Math.round(ageHours * 10) / 10;
  const when = new Date(oldest.blockTime * 1000).toISOString();
  if (history.truncated) {
    // More than a page of history: at least this old, and too busy to date exactly in one read.
    return { hits: [], summary: { created_at: null, age_hours: null, age_at_least_hours: rounded } };
  }
  const hits: Hit[] = [];
  if (ageHours < NEW_TOKEN_HOURS.any) {
    hits.push({
      code: 'TOKEN_NEW',
      strength: ageHours < NEW_TOKEN_HOURS.full ? 1 : 1 / 3,
      evidence: { created_at: when, age_hours: rounded, creation_signature: oldest.signature },
      reason: `the mint was created ${rounded < 48 ? `${rounded} hours` : `${Math.floor(rounded / 24)} days`} ago`,
    });
  }
  return { hits, summary: { created_at: when, age_hours: rounded } };
}
