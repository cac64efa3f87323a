/**
 * Pure: insider facts + the holders already read → INSIDER_CLUSTER (clusters.ts decides who is
 * tied), INSIDERS_UNAVAILABLE when a trace was refused or cut by the bound, and an `insiders`
 * summary saying what was traced and what was cut. A wallet's share is what its token accounts hold
 * among the largest accounts (a launch buyer not among them counts for nothing: a lower bound).
 * LAUNCH_INSIDERS sees funding inside the launch transactions; this check sees funding before a
 * wallet first touched the token, so the two never name a wallet for the same transfer.
 */
import type { FlagHit } from '../../risk/model.js';
import { pct, ratio, short } from '../../risk/numbers.js';
import type { TokenView, TracedWallet } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';
import { MAX_HOPS } from '../thresholds.js';
import {
  clusterSeverity,
  FRESH_SECONDS,
  type FundedWallet,
  type InsiderCluster,
  insiderClusters,
} from './clusters.js';
import { WELL_KNOWN_FUNDER_ADDRESSES } from './well-known-funders.js';

type Hit = FlagHit<TokenFlag>;

export interface InsiderOutcome {
  readonly hits: Hit[];
  readonly summary: Record<string, unknown>;
}

/** Each owner's balance among the largest accounts, as a share of supply. */
function sharesOf(facts: TokenView, supply: bigint): Map<string, number> {
  const held = new Map<string, bigint>();
  for (const h of facts.decoded.holders) {
    if (h.owner !== null) held.set(h.owner, (held.get(h.owner) ?? 0n) + h.amount);
  }
  return new Map([...held].map(([owner, amount]) => [owner, ratio(amount, supply)]));
}

const listed = (c: InsiderCluster) => ({
  kind: c.kind,
  funder: c.funder,
  hops: c.hops,
  wallets: c.wallets,
  share: Math.round(c.share * 1_000_000) / 1_000_000,
});

function clusterHit(clusters: readonly InsiderCluster[], creator: string | null): Hit[] {
  const flagged = clusters.filter((c) => clusterSeverity(c.share) !== 'none');
  const top = flagged[0];
  if (top === undefined) return [];
  const by = top.kind === 'creator' ? 'the creator' : `one funder (${short(top.funder)})`;
  return [
    {
      code: 'INSIDER_CLUSTER',
      strength: 1,
      severity: clusterSeverity(top.share) === 'high' ? 'high' : 'medium',
      evidence: { clusters: flagged.map(listed), share: listed(top).share, creator },
      reason: `${top.wallets.length} wallets funded by ${by}${top.hops > 1 ? ' through an intermediate wallet' : ''} hold ${pct(top.share)} of the supply`,
    },
  ];
}

function unavailableHit(wallets: readonly TracedWallet[], traceFailed: string | null): Hit[] {
  const refused = wallets.filter((w) => w.refused);
  if (refused.length === 0 && traceFailed === null) return [];
  const reason =
    traceFailed ??
    `${refused.length} of ${wallets.length} wallets' funding could not be read (${refused[0]!.cut})`;
  return [
    {
      code: 'INSIDERS_UNAVAILABLE',
      strength: 1,
      evidence: { reason, wallets_cut: refused.map((w) => ({ wallet: w.wallet, why: w.cut })) },
      reason: `insiders by funding only in part: ${reason}`,
    },
  ];
}

/** The insider check; nothing at all when the scan did not read it. */
export function insiderChecks(facts: TokenView, supply: bigint): InsiderOutcome {
  const read = facts.insiders;
  if (read === undefined) return { hits: [], summary: {} };
  if (read.status === 'not-run')
    return { hits: [], summary: { insiders: { checked: false, reason: read.reason } } };
  const shares = sharesOf(facts, supply);
  const creator = read.creator;
  const funded: FundedWallet[] = read.wallets.map((w) => ({
    wallet: w.wallet,
    share: shares.get(w.wallet) ?? 0,
    funders: w.funders,
    fresh: w.fresh,
  }));
  const clusters = insiderClusters(funded, { creator, wellKnown: WELL_KNOWN_FUNDER_ADDRESSES });
  return {
    hits: [...clusterHit(clusters, creator), ...unavailableHit(read.wallets, read.traceFailed)],
    summary: {
      insiders: {
        checked: true,
        creator,
        traced: read.wallets.map((w) => ({
          wallet: w.wallet,
          roles: w.roles,
          funders: w.funders,
          fresh: w.fresh,
          ...(w.cut ? { cut: w.cut } : {}),
        })),
        clusters: clusters.map(listed),
        hops_followed: MAX_HOPS,
        fresh_within_seconds: FRESH_SECONDS,
        not_traced: {
          holders: read.holdersUnread,
          buyers: read.buyersUnread,
          over_cap: read.overCap,
        },
        // Where the trace's facts came from: those kept by an earlier scan, with the slots they were read at.
        ...(read.kept ? { from_kept_facts: read.kept } : {}),
      },
    },
  };
}
