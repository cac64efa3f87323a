/**
 * Pure: the creator's launches as every source found them → each launch's state and the creator's
 * trades in it, and the rules on them (docs/risk-model.md, /scan/pumpfun, states the thresholds):
 *  - a dev dump: the creator sold DUMP_SHARE or more of its creation buy within DUMP_WINDOW_S of
 *    the creation, i.e. into the buyers who came after it;
 *  - a coin that died young: dead on its curve, its creator out (YOUNG_EXIT_SHARE of its dev buy
 *    sold) within YOUNG_EXIT_S of the creation.
 */
import { type BondingCurve, decodeBondingCurve } from '../../solana/decoders/pump-bonding-curve.js';
import type { CreatorHistoryRead, HistoryLaunch } from './history.js';
import type { LaunchCurve } from './launches.js';
import {
  DEAD_RESERVES,
  DEV_BUY_WINDOW_S,
  DUMP_SHARE,
  DUMP_WINDOW_S,
  YOUNG_EXIT_S,
  YOUNG_EXIT_SHARE,
} from './thresholds.js';

export const isDead = (c: BondingCurve) => !c.complete && c.realQuoteReserves < DEAD_RESERVES;

export interface CreatorTrades {
  /** Tokens the creator bought within DEV_BUY_WINDOW_S of the creation. */
  readonly devBuy: bigint;
  /** Tokens it sold (or sent away, or closed) since, in all that was read. */
  readonly sold: bigint;
  /** Seconds from the creation to the sell that took the total sold to DUMP_SHARE of the dev buy. */
  readonly dumpAfterS: number | null;
  /** Seconds from the creation to the sell that took it to YOUNG_EXIT_SHARE. */
  readonly exitAfterS: number | null;
}

const reaches = (sold: bigint, devBuy: bigint, share: number) =>
  devBuy > 0n && Number(sold) >= Number(devBuy) * share;

export function tradesOf(launch: HistoryLaunch): CreatorTrades {
  const created = launch.createdAt;
  let devBuy = 0n;
  let sold = 0n;
  let dumpAfterS: number | null = null;
  let exitAfterS: number | null = null;
  for (const move of launch.moves) {
    const after = created === null || move.at === null ? null : move.at - created;
    if (move.amount > 0n) {
      if (after !== null && after <= DEV_BUY_WINDOW_S) devBuy += move.amount;
      continue;
    }
    sold -= move.amount;
    if (after === null) continue;
    if (dumpAfterS === null && reaches(sold, devBuy, DUMP_SHARE)) dumpAfterS = after;
    if (exitAfterS === null && reaches(sold, devBuy, YOUNG_EXIT_SHARE)) exitAfterS = after;
  }
  return { devBuy, sold, dumpAfterS, exitAfterS };
}

export const isDump = (t: CreatorTrades) => t.dumpAfterS !== null && t.dumpAfterS <= DUMP_WINDOW_S;

export interface LaunchRow {
  readonly mint: string | null;
  readonly curve: string;
  readonly state: 'graduated' | 'dead' | 'on curve';
  readonly created_at: number | null;
  /** Creator trades, where its transactions were read (else null). */
  readonly dev_buy: string | null;
  readonly sold: string | null;
  readonly dumped_within_s: number | null;
  readonly dev_dump: boolean;
  readonly died_young: boolean;
}

/** A launch's state: its kept final outcome (launch-curves.ts), else what its curve's bytes say; null when they do not decode. */
function stateOf(c: LaunchCurve): LaunchRow['state'] | null {
  if ('kept' in c) return c.kept.outcome;
  const decoded = decodeBondingCurve(c.data);
  if (!decoded.ok) return null;
  return decoded.value.complete ? 'graduated' : isDead(decoded.value) ? 'dead' : 'on curve';
}

/** Each decodable launch with its state, and the creator's trades where the history read them. */
export function launchRows(
  curves: readonly LaunchCurve[],
  history: CreatorHistoryRead | undefined,
): LaunchRow[] {
  const byCurve = new Map((history?.launches ?? []).map((l) => [l.curve, l]));
  return curves.flatMap((c) => {
    const state = stateOf(c);
    if (state === null) return [];
    const launch = byCurve.get(c.address);
    const trades = launch ? tradesOf(launch) : null;
    const dead = state === 'dead';
    return [
      {
        mint: c.mint ?? launch?.mint ?? null,
        curve: c.address,
        state,
        created_at: launch?.createdAt ?? null,
        dev_buy: trades ? String(trades.devBuy) : null,
        sold: trades ? String(trades.sold) : null,
        dumped_within_s: trades && isDump(trades) ? trades.dumpAfterS : null,
        dev_dump: trades !== null && isDump(trades),
        died_young:
          dead && trades !== null && trades.exitAfterS !== null && trades.exitAfterS <= YOUNG_EXIT_S,
      },
    ];
  });
}

/** What each source did, for the evidence: which ran, how far back, what the bounds cut. */
export function sourcesOf(history: CreatorHistoryRead | undefined, tokenAccountsError: string | null) {
  if (history === undefined) return null;
  const program = history.programAccounts;
  const page = history.signatures;
  return {
    token_accounts: tokenAccountsError === null ? 'read' : `unavailable: ${tokenAccountsError}`,
    program_accounts:
      program.status === 'read' ? `read: ${program.curves.length} curve(s)` : `not used: ${program.reason}`,
    transactions:
      page.status === 'read'
        ? {
            signatures: page.signatures,
            reached_first: page.reachedFirst,
            oldest_block_time: page.oldestBlockTime,
            read: page.transactionsRead,
            cut: page.transactionsCut,
            ...(page.error ? { error: page.error } : {}),
            // Where the transactions came from: those kept by an earlier scan, with the slots they were read at.
            ...(page.kept ? { from_kept_facts: page.kept } : {}),
          }
        : `unavailable: ${page.reason}`,
  };
}

/**
 * Whether the sources together list every launch, and if not what was cut: getProgramAccounts is
 * complete; the creator's transactions are when the page holds its whole history, every successful
 * transaction in it was read, and they show this coin's creation (else the creator is not its signer).
 */
export function historyCompleteness(history: CreatorHistoryRead | undefined, mint: string) {
  if (history === undefined) return { complete: false, cut: null };
  if (history.programAccounts.status === 'read') return { complete: true, cut: null };
  const page = history.signatures;
  if (page.status !== 'read') return { complete: false, cut: page.reason };
  if (!page.reachedFirst) {
    return { complete: false, cut: `only the creator's newest ${page.signatures} signatures were read` };
  }
  if (page.transactionsCut > 0) {
    return {
      complete: false,
      cut: `${page.transactionsCut} of the creator's ${page.transactionsCut + page.transactionsRead} transactions were not read${page.error ? ` (${page.error})` : ' (bound per scan)'}`,
    };
  }
  if (!history.launches.some((l) => l.mint === mint)) {
    return { complete: false, cut: "this coin's creation is not among the creator's own transactions" };
  }
  return { complete: true, cut: null };
}
