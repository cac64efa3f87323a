/**
 * Pure: insider clusters from who funded each holder with SOL. Each wallet comes with its funders
 * (hop 1, then hop 2: who funded the funder), found before the wallet first touched the token.
 * A chain stops at a well-known funder (an exchange hot wallet): exchange money ties nobody.
 *   - every wallet the creator funded, at hop 1 or 2, is in the creator's cluster;
 *   - otherwise, MIN_FRESH_WALLETS or more fresh wallets (funded just before they first touched
 *     the token, their first transaction) with one funder at the same hop are a cluster; hop 1 is
 *     grouped first, so the tightest tie wins.
 * A cluster's share is the sum of its wallets' shares of supply; the severity follows it.
 */
import { CLUSTER_SHARE_HIGH, CLUSTER_SHARE_MEDIUM, MAX_HOPS, MIN_FRESH_WALLETS } from '../thresholds.js';

export interface FundedWallet {
  readonly wallet: string;
  /** Its balance as a fraction of supply (0..1). */
  readonly share: number;
  /** Its funders, nearest first: [hop 1, hop 2]; shorter when the trace stopped or was cut. */
  readonly funders: readonly string[];
  /** Its first transaction was this funding, shortly before it first touched the token. */
  readonly fresh: boolean;
}

export interface InsiderCluster {
  readonly kind: 'creator' | 'common-funder';
  readonly funder: string;
  /** The farthest hop at which a member is tied to the funder (1 or 2). */
  readonly hops: number;
  readonly wallets: readonly string[];
  readonly share: number;
}

/** A wallet is fresh when its first transaction funded it at most this long before it touched the token. */
export const FRESH_SECONDS = 86_400;

export interface ClusterContext {
  readonly creator: string | null;
  readonly wellKnown: ReadonlySet<string>;
}

/** The funders that tie a wallet to someone: up to MAX_HOPS, stopping at a well-known funder. */
export function tyingFunders(wallet: FundedWallet, wellKnown: ReadonlySet<string>): string[] {
  const chain: string[] = [];
  for (const funder of wallet.funders.slice(0, MAX_HOPS)) {
    if (wellKnown.has(funder)) break;
    chain.push(funder);
  }
  return chain;
}

function clusterOf(
  kind: InsiderCluster['kind'],
  funder: string,
  members: { w: FundedWallet; hop: number }[],
) {
  return {
    kind,
    funder,
    hops: Math.max(...members.map((m) => m.hop)),
    wallets: members.map((m) => m.w.wallet),
    share: members.reduce((sum, m) => sum + m.w.share, 0),
  };
}

function creatorCluster(wallets: readonly FundedWallet[], context: ClusterContext): InsiderCluster | null {
  const { creator } = context;
  if (creator === null) return null;
  const members = wallets.flatMap((w) => {
    const hop = tyingFunders(w, context.wellKnown).indexOf(creator);
    return w.wallet !== creator && hop >= 0 ? [{ w, hop: hop + 1 }] : [];
  });
  return members.length > 0 ? clusterOf('creator', creator, members) : null;
}

function commonFunderClusters(wallets: readonly FundedWallet[], context: ClusterContext): InsiderCluster[] {
  const clusters: InsiderCluster[] = [];
  const taken = new Set<string>();
  for (let hop = 1; hop <= MAX_HOPS; hop++) {
    const byFunder = new Map<string, { w: FundedWallet; hop: number }[]>();
    for (const w of wallets) {
      const funder = tyingFunders(w, context.wellKnown)[hop - 1];
      if (!w.fresh || taken.has(w.wallet) || funder === undefined) continue;
      byFunder.set(funder, [...(byFunder.get(funder) ?? []), { w, hop }]);
    }
    for (const [funder, members] of byFunder) {
      if (members.length < MIN_FRESH_WALLETS) continue;
      for (const m of members) taken.add(m.w.wallet);
      clusters.push(clusterOf('common-funder', funder, members));
    }
  }
  return clusters;
}

/** The insider clusters among the wallets, largest share first. */
export function insiderClusters(wallets: readonly FundedWallet[], context: ClusterContext): InsiderCluster[] {
  const creator = creatorCluster(wallets, context);
  const rest = creator === null ? wallets : wallets.filter((w) => !creator.wallets.includes(w.wallet));
  const clusters = [...(creator ? [creator] : []), ...commonFunderClusters(rest, context)];
  return clusters.sort((a, b) => b.share - a.share);
}

/** How much a cluster's combined share weighs: none below the medium threshold. */
export function clusterSeverity(share: number): 'none' | 'medium' | 'high' {
  if (share >= CLUSTER_SHARE_HIGH) return 'high';
  if (share >= CLUSTER_SHARE_MEDIUM) return 'medium';
  return 'none';
}
