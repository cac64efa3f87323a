/**
 * Insiders by funding, the reads: who sent each of the largest holders (real wallets: pools,
 * curves, lockers, burn addresses and exchange hot wallets set aside as the holder rules do) and
 * each launch buyer its SOL before it first touched the token, and who funded that funder.
 *   - hop 1, per wallet: one page of its signatures (getSignaturesForAddress, newest first, 1000);
 *     a wallet with more has its funding beyond the page and is not traced (said). The oldest
 *     successful transaction before its first touch of the token (the first of its signatures the
 *     mint's own history page holds) is read (getTransaction): a System transfer or account
 *     creation to it there names its funder. When its oldest transaction already touches the token,
 *     nothing is read: it was funded in that transaction, if at all (launch forensics' part).
 *   - hop 2, per distinct funder that is neither well known nor the creator: the same two calls.
 * Holders are traced beside round 3 (once every read of round 2 is in), launch buyers once the launch's
 * transactions are in (the launch names the creator, who is not traced and ends a chain); every
 * read once (trace.ts). The whole search shares the optional searches' bound (OPTIONAL_SEARCH_MS),
 * and a wallet whose read it cut, or the RPC refused, says so. Kit sends one call per request, and
 * JSON-RPC has no multi-address form of either method: the calls of a hop go out at once instead.
 */
import { errorMessage } from '../../../errors.js';
import type { SolanaRpc } from '../../../solana/rpc.js';
import type { FactStore } from '../../fact-store.js';
import { boundedSend } from '../../liquidity/bounded-search.js';
import { OPTIONAL_SEARCH_MS } from '../../liquidity/thresholds.js';
import { exclusionReason } from '../../token-facts/holders.js';
import { keptSummary } from '../../token-facts/kept-transactions.js';
import type {
  HeldBy,
  InsiderFacts,
  LaunchFacts,
  MintHistory,
  TracedWallet,
} from '../../token-facts/model.js';
import { FundingReads, type Hop } from './trace.js';
import { WELL_KNOWN_FUNDER_ADDRESSES } from './well-known-funders.js';

/** Wallets traced per scan: the largest real holders, and the launch buyers (hop 1: two calls each). */
export const MAX_HOLDERS_TRACED = 8;
export const MAX_BUYERS_TRACED = 8;
/** Funders traced one hop further per scan (two calls each). */
export const MAX_SECOND_HOPS = 6;

type Role = 'holder' | 'buyer';
type Further = string | 'stop' | 'over the cap';

/** Traces groups of wallets (the holders, the buyers), sharing every read and the cap on second hops. */
class Tracer {
  private readonly seconds = new Set<string>();
  readonly traced = new Map<string, TracedWallet>();

  constructor(
    private readonly reads: FundingReads,
    /** Ends a chain; set once the launch names it, when the caller did not know it. */
    public creator: string | null,
  ) {}

  /** Whether a funder is traced one hop further: not the creator, not well known, within the cap. */
  private further(funder: string | null): Further {
    if (funder === null || funder === this.creator || WELL_KNOWN_FUNDER_ADDRESSES.has(funder)) return 'stop';
    if (this.seconds.has(funder)) return funder;
    if (this.seconds.size >= MAX_SECOND_HOPS) return 'over the cap';
    this.seconds.add(funder);
    return funder;
  }

  async group(wallets: readonly { wallet: string; at: number | null }[], role: Role): Promise<void> {
    const first = await this.reads.hop(
      wallets.map((w) => ({ wallet: w.wallet, touch: 'mint', touchedAt: w.at })),
    );
    const further = first.map((h) => this.further(h.funder));
    const funders = [...new Set(further.filter((f) => f !== 'stop' && f !== 'over the cap'))];
    const second = await this.reads.hop(funders.map((f) => ({ wallet: f, touch: 'none', touchedAt: null })));
    const byFunder = new Map(funders.map((f, i) => [f, second[i]!]));
    wallets.forEach((w, i) => {
      this.record(w.wallet, role, first[i]!, further[i]!, byFunder);
    });
  }

  private record(
    wallet: string,
    role: Role,
    first: Hop,
    further: Further,
    byFunder: ReadonlyMap<string, Hop>,
  ) {
    const known = this.traced.get(wallet);
    if (known !== undefined) {
      if (!known.roles.includes(role)) this.traced.set(wallet, { ...known, roles: [...known.roles, role] });
      return;
    }
    const second = byFunder.get(further) ?? null;
    const overCap =
      further === 'over the cap' ? `second hop not read: over ${MAX_SECOND_HOPS} funders` : null;
    this.traced.set(wallet, {
      wallet,
      roles: [role],
      funders: [first.funder, second?.funder].filter((x): x is string => typeof x === 'string'),
      fresh: first.fresh,
      fundedAt: first.fundedAt,
      cut: first.cut ?? second?.cut ?? overCap,
      refused: first.refused || (second?.refused ?? false),
    });
  }
}

export interface InsiderInputs {
  readonly mint: string;
  readonly history: MintHistory | null;
  readonly held: Promise<HeldBy>;
  /** Why the largest holders could not be listed (round 1), or null. */
  readonly largestError: string | null;
  readonly launch: Promise<LaunchFacts>;
  /** The creator when the caller knows it before the launch is read (a pump.fun curve names it). */
  readonly creator: string | null;
  /** Facts kept by earlier scans: transactions, and funders' first fundings (first-funding.ts). */
  readonly facts?: FactStore | undefined;
}

/** The largest real wallets among the holders (as the holder rules set others aside), largest first. */
export function holdersToTrace(held: HeldBy): string[] {
  const byOwner = new Map<string, bigint>();
  for (const h of held.holders) {
    if (h.owner === null || h.amount === 0n || exclusionReason(h, new Map()) !== null) continue;
    if (WELL_KNOWN_FUNDER_ADDRESSES.has(h.owner)) continue;
    byOwner.set(h.owner, (byOwner.get(h.owner) ?? 0n) + h.amount);
  }
  return [...byOwner].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0)).map(([owner]) => owner);
}

/** The creator: the one the caller knows (a pump.fun curve), else the launch's creation fee payer. */
export function creatorOf(launch: LaunchFacts, known: string | null): string | null {
  if (known !== null || launch.status !== 'read') return known;
  return launch.creator ?? launch.transactions.find((t) => t.createsMint)?.feePayer ?? null;
}

/** The launch's buyers other than the creator, earliest first, with the block time of their first buy. */
export function buyersToTrace(
  launch: LaunchFacts,
  creator: string | null,
): { wallet: string; at: number | null }[] {
  if (launch.status !== 'read') return [];
  const seen = new Map<string, number | null>();
  for (const tx of [...launch.transactions].sort((a, b) => a.slot - b.slot)) {
    for (const b of tx.failed ? [] : tx.buys) {
      if (b.wallet !== creator && !seen.has(b.wallet)) seen.set(b.wallet, tx.blockTime);
    }
  }
  return [...seen].map(([wallet, at]) => ({ wallet, at }));
}

/** The inputs as round 2 of the token's schedule has them (../schedule.ts). */
export function insiderInputs(
  first: { mint: string; history: MintHistory | null; largest: { error: string | null } },
  held: Promise<HeldBy>,
  launch: Promise<LaunchFacts>,
  creator: string | null,
  facts?: FactStore,
): InsiderInputs {
  return {
    mint: first.mint,
    history: first.history,
    held,
    largestError: first.largest.error,
    launch,
    creator,
    facts,
  };
}

const notRead = (e: unknown): LaunchFacts => ({ status: 'not-run', reason: errorMessage(e) });

/**
 * The insider reads (see the header): started in round 2, traced once round 2's answers are in;
 * resolves when every trace has ended or been cut by the bound.
 */
export async function gatherInsiderFacts(
  rpc: SolanaRpc,
  inputs: InsiderInputs,
  signal?: AbortSignal,
  boundMs = OPTIONAL_SEARCH_MS,
): Promise<InsiderFacts> {
  const bound = boundedSend(signal, boundMs);
  const mintSignatures = new Set((inputs.history?.entries ?? []).map((e) => e.signature));
  const reads = new FundingReads(rpc, inputs.mint, bound, mintSignatures, inputs.facts);
  const tracer = new Tracer(reads, inputs.creator);
  let holders: string[] = [];
  let buyers: { wallet: string; at: number | null }[] = [];
  const fromHolders = inputs.held.then((held) => {
    holders = holdersToTrace(held).filter((w) => w !== inputs.creator);
    return tracer.group(
      holders.slice(0, MAX_HOLDERS_TRACED).map((wallet) => ({ wallet, at: null })),
      'holder',
    );
  });
  const launched = inputs.launch.catch(notRead);
  const fromBuyers = launched.then((launch) => {
    tracer.creator = creatorOf(launch, inputs.creator);
    buyers = buyersToTrace(launch, tracer.creator);
    return tracer.group(buyers.slice(0, MAX_BUYERS_TRACED), 'buyer');
  });
  // A group whose trace fails outright is named, never read as a group funded by no one.
  const failed = (group: string) => (e: unknown) => `tracing the ${group} failed: ${errorMessage(e)}`;
  const [launch, ...failures] = await Promise.all([
    launched,
    fromHolders.then(() => null, failed('largest holders')),
    fromBuyers.then(() => null, failed('launch buyers')),
  ]);
  return {
    status: 'read',
    // The creator's own wallet is no insider of itself (it may have been traced before the launch named it).
    wallets: [...tracer.traced.values()].filter((w) => w.wallet !== tracer.creator),
    holdersUnread:
      inputs.largestError === null ? null : `the largest holders could not be read: ${inputs.largestError}`,
    buyersUnread: launch.status === 'read' ? null : `the launch was not read: ${launch.reason}`,
    traceFailed: failures.filter((f) => f !== null).join('; ') || null,
    overCap:
      Math.max(0, holders.length - MAX_HOLDERS_TRACED) + Math.max(0, buyers.length - MAX_BUYERS_TRACED),
    creator: tracer.creator,
    kept: keptOf(await reads.transactionsRead(), reads.firstFundings.servedAt),
  };
}

/** What the fact store served this trace: transactions and first fundings, with the slots they were read at. */
function keptOf(transactions: Parameters<typeof keptSummary>[0], fundings: readonly number[]) {
  const read = keptSummary(transactions);
  const slots = [...(read?.read_at_slots ?? []), ...fundings];
  if (slots.length === 0) return null;
  return {
    transactions: read?.transactions ?? 0,
    first_fundings: fundings.length,
    read_at_slots: [Math.min(...slots), Math.max(...slots)],
  };
}
