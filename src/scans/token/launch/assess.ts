/**
 * Pure: launch facts + the holders already read → launch flags, a `launch` summary and notes.
 * A buyer is a wallet other than the creator that signed a transaction in the launch window
 * raising its own balance of the mint (decode.ts). What it holds now comes from the largest
 * token accounts: exact for accounts in that list, at most the smallest listed balance for the
 * rest (none at all when the list is shorter than the RPC's 20: it then holds every account;
 * unknown when the list could not be read). Only balances seen there are added to a share.
 */
import type { FlagHit } from '../../risk/model.js';
import type { LaunchTransaction, TokenFacts } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';
import {
  BUNDLE_WALLETS,
  COMMON_FUNDER_BUYERS,
  LAUNCH_WINDOW_SLOTS,
  SNIPERS_HELD_SHARE,
} from '../thresholds.js';

type Hit = FlagHit<TokenFlag>;

/** getTokenLargestAccounts' page: a shorter list holds every token account of the mint. */
const LARGEST_PAGE = 20;
/** Buyers listed in the summary, at most (the flags list all they concern). */
const LISTED_BUYERS = 25;

export interface Buyer {
  readonly wallet: string;
  readonly firstSlot: number;
  readonly bought: bigint;
  readonly tokenAccounts: ReadonlySet<string>;
  /** Who paid its launch transactions or sent it SOL in them (never itself). */
  readonly funders: ReadonlySet<string>;
  /** Held now in the accounts it bought into, as far as the largest accounts show it. */
  readonly held: bigint;
  /** What it can hold at most (`held` when exact); null when the largest accounts are unknown. */
  readonly heldAtMost: bigint | null;
}

export interface LaunchOutcome {
  readonly hits: Hit[];
  readonly summary: Record<string, unknown>;
  readonly notes: string[];
}

const share = (part: bigint, whole: bigint) =>
  whole > 0n ? Number((part * 1_000_000n) / whole) / 1_000_000 : 0;
const ramp = (x: number, warn: number, full: number) =>
  Math.max(0, Math.min(1, (x - warn) / (full - warn) + (x >= warn ? 0.01 : 0)));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function notRun(reason: string): LaunchOutcome {
  return {
    hits: [],
    summary: { launch: { checked: false, reason } },
    notes: [`launch forensics not run: ${reason}`],
  };
}

/** What each buyer's token accounts hold now, from the largest accounts already read. */
function holdingsOf(facts: TokenFacts) {
  const largest = facts.largest;
  const amounts = new Map((largest ?? []).map((a) => [a.address as string, a.amount]));
  // A list shorter than the page holds every account; otherwise an unlisted one holds at most the last.
  const ceiling =
    largest === null ? null : largest.length < LARGEST_PAGE ? 0n : (largest.at(-1)?.amount ?? 0n);
  return (accounts: ReadonlySet<string>) => {
    let held = 0n;
    let heldAtMost: bigint | null = 0n;
    for (const account of accounts) {
      const amount = amounts.get(account);
      if (amount !== undefined) held += amount;
      heldAtMost =
        heldAtMost === null || (amount === undefined && ceiling === null)
          ? null
          : heldAtMost + (amount ?? ceiling ?? 0n);
    }
    return { held, heldAtMost };
  };
}

export function buyersOf(
  facts: TokenFacts,
  transactions: readonly LaunchTransaction[],
  creator: string,
  lastSlot: number,
): Buyer[] {
  const inWindow = transactions.filter((t) => !t.failed && t.slot <= lastSlot);
  const found = new Map<string, { firstSlot: number; bought: bigint; accounts: Set<string> }>();
  for (const tx of inWindow) {
    for (const buy of tx.buys) {
      if (buy.wallet === creator) continue;
      const entry = found.get(buy.wallet) ?? { firstSlot: tx.slot, bought: 0n, accounts: new Set() };
      entry.firstSlot = Math.min(entry.firstSlot, tx.slot);
      entry.bought += buy.amount;
      entry.accounts.add(buy.tokenAccount);
      found.set(buy.wallet, entry);
    }
  }
  const holding = holdingsOf(facts);
  return [...found].map(([wallet, entry]) => {
    const funders = new Set<string>();
    for (const tx of inWindow) {
      if (tx.buys.some((b) => b.wallet === wallet) && tx.feePayer !== wallet) funders.add(tx.feePayer);
      for (const t of tx.solTransfers) if (t.to === wallet && t.from !== wallet) funders.add(t.from);
    }
    return {
      wallet,
      firstSlot: entry.firstSlot,
      bought: entry.bought,
      tokenAccounts: entry.accounts,
      funders,
      ...holding(entry.accounts),
    };
  });
}

const listed = (buyers: readonly Buyer[]) =>
  buyers.map((b) => ({
    wallet: b.wallet,
    slot: b.firstSlot,
    bought: String(b.bought),
    ...(b.heldAtMost === b.held
      ? { held_now: String(b.held) }
      : { held_now_at_most: b.heldAtMost === null ? null : String(b.heldAtMost) }),
    funded_by: [...b.funders],
  }));

function bundleHit(buyers: readonly Buyer[], creationSlot: number, supply: bigint): Hit[] {
  const first = buyers.filter((b) => b.firstSlot === creationSlot);
  if (first.length < BUNDLE_WALLETS.warn) return [];
  const bought = first.reduce((s, b) => s + b.bought, 0n);
  return [
    {
      code: 'LAUNCH_BUNDLED',
      strength: ramp(first.length, BUNDLE_WALLETS.warn, BUNDLE_WALLETS.full),
      evidence: { creation_slot: creationSlot, wallets: listed(first), bought_share: share(bought, supply) },
      reason: `${first.length} wallets besides the creator bought in the creation slot (${pct(share(bought, supply))} of the supply)`,
    },
  ];
}

function snipersHit(buyers: readonly Buyer[], supply: bigint): Hit[] {
  // Only balances seen in the largest accounts count: the share is a lower bound, never inflated.
  const seen = buyers.filter((b) => b.held > 0n);
  const held = share(
    seen.reduce((s, b) => s + b.held, 0n),
    supply,
  );
  if (held < SNIPERS_HELD_SHARE.warn) return [];
  return [
    {
      code: 'LAUNCH_SNIPERS_HOLD',
      strength: ramp(held, SNIPERS_HELD_SHARE.warn, SNIPERS_HELD_SHARE.full),
      evidence: { held_share: held, wallets: listed(seen), window_slots: LAUNCH_WINDOW_SLOTS },
      reason: `${seen.length} wallets that bought within ${LAUNCH_WINDOW_SLOTS} slots of the creation still hold ${pct(held)} of the supply`,
    },
  ];
}

function insiderHit(buyers: readonly Buyer[], creator: string): Hit[] {
  const byCreator = buyers.filter((b) => b.funders.has(creator));
  if (byCreator.length > 0) {
    return [
      {
        code: 'LAUNCH_INSIDERS',
        strength: 1,
        evidence: { funder: creator, funder_is_creator: true, wallets: listed(byCreator) },
        reason: `the creator funded ${byCreator.length} of the launch buyers in the launch transactions`,
      },
    ];
  }
  const counts = new Map<string, Buyer[]>();
  for (const b of buyers) for (const f of b.funders) counts.set(f, [...(counts.get(f) ?? []), b]);
  const [funder, funded] = [...counts].sort((a, b) => b[1].length - a[1].length)[0] ?? [null, []];
  if (funder === null || funded.length < COMMON_FUNDER_BUYERS) return [];
  return [
    {
      code: 'LAUNCH_INSIDERS',
      strength: 1,
      severity: 'medium',
      evidence: { funder, funder_is_creator: false, wallets: listed(funded) },
      reason: `one wallet (${funder.slice(0, 4)}…${funder.slice(-4)}) funded ${funded.length} of the launch buyers`,
    },
  ];
}

/** The launch checks; nothing at all when the scan did not read the launch. */
export function launchChecks(facts: TokenFacts, supply: bigint): LaunchOutcome {
  const launch = facts.launch;
  if (launch === undefined) return { hits: [], summary: {}, notes: [] };
  if (launch.status === 'not-run') return notRun(launch.reason);
  const creation = launch.transactions.find((t) => t.createsMint);
  if (creation === undefined && launch.unread > 0) {
    // Young, but its launch could not be read: unknown, which is never taken for clean.
    const reason = `the mint’s creation is not among the ${launch.transactions.length} launch transactions read (${launch.unread} not read${launch.error ? `: ${launch.error}` : ''})`;
    const outcome = notRun(reason);
    return {
      ...outcome,
      hits: [
        {
          code: 'LAUNCH_UNAVAILABLE',
          strength: 1,
          evidence: { reason },
          reason: 'its launch could not be read',
        },
      ],
    };
  }
  if (creation === undefined) {
    return notRun(
      'the oldest transactions the RPC returned do not include the mint’s creation (history pruned)',
    );
  }
  const creator = launch.creator ?? creation.feePayer;
  const buyers = buyersOf(facts, launch.transactions, creator, creation.slot + LAUNCH_WINDOW_SLOTS);
  const bought = buyers.reduce((s, b) => s + b.bought, 0n);
  const partial = launch.unread > 0;
  return {
    hits: [
      ...bundleHit(buyers, creation.slot, supply),
      ...snipersHit(buyers, supply),
      ...insiderHit(buyers, creator),
    ],
    summary: {
      launch: {
        checked: true,
        creation_slot: creation.slot,
        creation_signature: creation.signature,
        creator,
        window_slots: LAUNCH_WINDOW_SLOTS,
        transactions_read: launch.transactions.length,
        transactions_unread: launch.unread,
        buyers_count: buyers.length,
        creation_slot_buyers: buyers.filter((b) => b.firstSlot === creation.slot).length,
        bought_share: share(bought, supply),
        buyers: listed(buyers.slice(0, LISTED_BUYERS)),
        funding_seen_in: 'the launch transactions only (fee payer and System transfers)',
        // Where the transactions came from: those kept by an earlier scan, with the slots they were read at.
        ...(launch.kept ? { from_kept_facts: launch.kept } : {}),
      },
    },
    notes: partial
      ? [
          `launch forensics partial: ${launch.unread} of ${launch.inWindow} launch-window transactions not read`,
        ]
      : [],
  };
}
